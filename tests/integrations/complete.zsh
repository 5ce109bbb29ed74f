# What zsh's completion system offers for each command line given, as a TAB at its end offers it:
# an interactive zsh in a pseudo-terminal (zpty), compinit with the folder FPATH_DIR first in
# $fpath, the line typed, then TAB.
#
# Usage: zsh -f tests/integrations/complete.zsh FPATH_DIR LINE...
# Prints, for each LINE, `=== LINE` and then each candidate on a line of its own.

zmodload zsh/zpty || exit 1
fpath_dir=$1
shift

zpty -b shell TERM=xterm zsh -f -i
zpty -w shell "PS1='' PROMPT='' RPROMPT='' fpath=(${(q)fpath_dir} \$fpath)"
zpty -w shell 'autoload -Uz compinit && compinit -u -D'
# Every match that completion adds is printed, tagged, as it is added.
zpty -w shell 'compadd() {
    if [[ ${@[(I)-[OAD]*]} != 0 ]]; then builtin compadd "$@"; return; fi
    local -a hits
    builtin compadd -O hits "$@"
    print -rl -- "<M>"${^hits}
    builtin compadd "$@"
}'
zpty -w shell 'tab-and-report() {
    print -r -- "<<<BEGIN"
    zle complete-word
    print -r -- ">>>END"
    BUFFER=""
}'
zpty -w shell 'zle -N tab-and-report && bindkey "^I" tab-and-report && print READY""-TO-GO'
zpty -r shell out '*READY-TO-GO*' || exit 1

for line; do
    zpty -w -n shell "$line"$'\t'
    zpty -r shell out '*>>>END*' || exit 1
    print -r -- "=== $line"
    out=${out##*<<<BEGIN}
    for match in ${(f)out}; do
        match=${match%%$'\r'}
        [[ $match == '<M>'* ]] && print -r -- ${match#<M>}
    done
done
zpty -d shell
