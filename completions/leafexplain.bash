# bash completion for leafexplain                          -*- shell-script -*-
# A loader, written by hand: at the first TAB it asks leafexplain for its completion script
# (`leafexplain completion show bash`, written from its command table, so it always matches the
# leafexplain installed), loads it, and completes; later TABs run that script, without Python.
#
# `leafexplain completion install bash` installs the script itself instead. Or copy this file to
# ~/.local/share/bash-completion/completions/leafexplain, or source it from ~/.bashrc.
_leafexplain() {
    local script
    script=$(command leafexplain completion show bash 2>/dev/null) || return 0
    eval "$script" && _leafexplain "$@"
}
complete -F _leafexplain leafexplain
