"""The zsh completion script, written from the command tree: bash's `case` tables, zsh's descriptions and widgets."""

from __future__ import annotations

from leafexplain.integrations.completion.bash import bash_like_tables
from leafexplain.integrations.completion.tree import AWK_FILTER, MAX_CANDIDATES, Command, header


def _zsh_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _zsh_described(name: str, help: str) -> str:
    return _zsh_quote(name.replace(":", "\\:") + (f":{help}" if help else ""))


def zsh_script(tree: Command) -> str:
    described = [
        "# __leafexplain_items: `name:description` for each subcommand ($1 = subcommands) or option",
        "# ($1 = options) of command path $2.",
        "__leafexplain_described() {",
        "    case $1:$2 in",
    ]
    for command in tree.walk():
        if command.subcommands:
            entries = " ".join(_zsh_described(sub.name, sub.help) for sub in command.subcommands)
            described.append(f"        {_zsh_quote('subcommands:' + command.path)}) __leafexplain_items=({entries}) ;;")
    for command in tree.walk():
        entries = " ".join(_zsh_described(f, o.help) for o in command.options for f in o.flags)
        described.append(f"        {_zsh_quote('options:' + command.path)}) __leafexplain_items=({entries}) ;;")
    described += ["        *) return 1 ;;", "    esac", "}"]

    lines = [
        "#compdef leafexplain",
        "# zsh completion for leafexplain",
        *header("#"),
        "#",
        "# Install: leafexplain completion install zsh, or copy this file as _leafexplain into a folder",
        "# of $fpath (before compinit runs), or source it after compinit.",
        "",
        *bash_like_tables(tree),
        "",
        *described,
        "",
        "# Record values of the kinds $@ that start with the word being completed, at most "
        + str(MAX_CANDIDATES)
        + ".",
        "__leafexplain_list_values() {",
        "    local dir=${XDG_CACHE_HOME:-$HOME/.cache}/leafexplain/complete kind prefix=${(Q)PREFIX}",
        "    local -a lists missing",
        "    for kind; do",
        "        # a list older than the record index (records changed since) is asked for again",
        "        if [[ -f $dir/$kind.txt && ! $dir/../index -nt $dir/$kind.txt ]]; then lists+=($dir/$kind.txt)",
        "        else missing+=($kind); fi",
        "    done",
        "    if (( $#missing )); then",
        "        for kind in $missing; do command leafexplain __complete $kind 2>/dev/null; done |",
        f"            LEAFEXPLAIN_PREFIX=$prefix awk {AWK_FILTER} $lists -",
        "    else",
        f"        LEAFEXPLAIN_PREFIX=$prefix awk {AWK_FILTER} $lists",
        "    fi",
        "}",
        "",
        "# Completes the current word as the value described by $@ (a spec from the tables above).",
        "__leafexplain_complete_value() {",
        "    local kind=$1 expl",
        "    shift",
        "    case $kind in",
        "        choice)",
        '            __leafexplain_words=("$@")',
        "            _wanted values expl value compadd -a __leafexplain_words",
        "            ;;",
        "        file) _files ;;",
        "        dir) _files -/ ;;",
        "        list)",
        '            __leafexplain_words=(${(f)"$(__leafexplain_list_values $@)"})',
        '            _wanted values expl "${(j: or :)@}" compadd -a __leafexplain_words',
        "            ;;",
        "        command)",
        "            # The command's own words: complete them as if the command were typed alone.",
        "            if (( cmdstart )); then",
        '                words=("${(@)words[cmdstart,-1]}")',
        "                (( CURRENT -= cmdstart - 1 ))",
        "                _normal",
        "            else",
        "                _command_names -e",
        "            fi",
        "            ;;",
        "    esac",
        "}",
        "",
        "_leafexplain() {",
        "    local cmdpath='' word option='' REPLY",
        "    local -a __leafexplain_items __leafexplain_words",
        "    integer i=2 npos=0 dashdash=0 cmdstart=0",
        "    while (( i < CURRENT )); do",
        "        word=$words[i]",
        "        if (( !dashdash )) && [[ $word == -- ]]; then",
        "            dashdash=1",
        "        elif (( !dashdash )) && [[ $word == -?* ]]; then",
        '            if [[ $word != *=* ]] && __leafexplain_option_value "$cmdpath" "$word"; then',
        "                if (( i + 1 == CURRENT )); then option=$word; break; fi",
        "                i+=1",
        "            fi",
        '        elif (( !dashdash && npos == 0 )) && __leafexplain_subcommands "$cmdpath" &&',
        "            (( ${${=REPLY}[(Ie)$word]} )); then",
        "            cmdpath=${cmdpath:+$cmdpath }$word",
        "        else",
        f"            cmdpath=${{cmdpath:-{tree.default}}}  # `leafexplain TEXT` is `leafexplain {tree.default} TEXT`",
        "            # A command to run owns the rest of the line.",
        '            if (( !cmdstart )) && __leafexplain_argument "$cmdpath" "$npos" && [[ $REPLY == command ]]; then',
        "                cmdstart=i dashdash=1",
        "            fi",
        "            npos+=1",
        "        fi",
        "        i+=1",
        "    done",
        "    if [[ -z $option ]] && (( !dashdash )) && [[ $PREFIX == -?*=* ]] && "
        '__leafexplain_option_value "$cmdpath" "${PREFIX%%=*}"; then',
        "        option=${PREFIX%%=*}",
        "        compset -P '*='",
        "    fi",
        "",
        "    if [[ -n $option ]]; then",
        '        __leafexplain_option_value "$cmdpath" "$option"',
        "        __leafexplain_complete_value ${=REPLY}",
        "    elif (( !dashdash )) && [[ $PREFIX == -* ]]; then",
        '        __leafexplain_described options "$cmdpath" && _describe -t options option __leafexplain_items',
        '    elif (( !dashdash && npos == 0 )) && __leafexplain_described subcommands "$cmdpath"; then',
        "        _describe -t commands 'leafexplain command' __leafexplain_items",
        '    elif __leafexplain_argument "$cmdpath" "$npos"; then',
        "        __leafexplain_complete_value ${=REPLY}",
        "    elif (( dashdash )); then",
        "        _files",
        "    else",
        '        __leafexplain_described options "$cmdpath" && _describe -t options option __leafexplain_items',
        "    fi",
        "}",
        "",
        "# Autoloaded from $fpath, this file is the body of _leafexplain; sourced, it registers it.",
        "if [[ $funcstack[1] == _leafexplain ]]; then",
        '    _leafexplain "$@"',
        "else",
        "    compdef _leafexplain leafexplain",
        "fi",
        "",
    ]
    return "\n".join(lines)
