# fish completion for leafexplain
# A loader, written by hand: fish reads this file at the first TAB after `leafexplain`; it loads
# the completion script leafexplain writes from its command table (`leafexplain completion show
# fish`), so that it always matches the leafexplain installed.
#
# `leafexplain completion install fish` installs the script itself instead. Or copy this file to
# ~/.config/fish/completions/leafexplain.fish.
command leafexplain completion show fish 2>/dev/null | source
