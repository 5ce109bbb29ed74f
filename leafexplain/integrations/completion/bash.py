"""The bash completion script, written from the command tree (and the `case` tables zsh shares)."""

from __future__ import annotations

from leafexplain.integrations.completion.tree import (
    AWK_FILTER,
    MAX_CANDIDATES,
    Command,
    header,
    options_with_values,
)


def _sh_case_label(path: str) -> str:
    return f"'{path}'"


def bash_like_tables(tree: Command, indent: str = "    ") -> list[str]:
    """The four lookup functions, in the `case` syntax that bash and zsh share."""
    i1, i2, i3 = indent, indent * 2, indent * 3
    out = ["# REPLY: the subcommands of command path $1.", "__leafexplain_subcommands() {", f"{i1}case $1 in"]
    for command in tree.walk():
        if command.subcommands:
            names = " ".join(sub.name for sub in command.subcommands)
            out.append(f"{i2}{_sh_case_label(command.path)}) REPLY='{names}' ;;")
    out += [f"{i2}*) return 1 ;;", f"{i1}esac", "}", ""]

    out += ["# REPLY: the options of command path $1.", "__leafexplain_options() {", f"{i1}case $1 in"]
    for command in tree.walk():
        flags = " ".join(flag for option in command.options for flag in option.flags)
        out.append(f"{i2}{_sh_case_label(command.path)}) REPLY='{flags}' ;;")
    out += [f"{i2}*) return 1 ;;", f"{i1}esac", "}", ""]

    out += [
        "# REPLY: what the value of option $2 of command path $1 is; fails for a flag.",
        "__leafexplain_option_value() {",
        f"{i1}case $1 in",
    ]
    for command in tree.walk():
        valued = options_with_values(command)
        if not valued:
            continue
        out += [f"{i2}{_sh_case_label(command.path)})", f"{i3}case $2 in"]
        for option in valued:
            assert option.values is not None
            out.append(f"{i3}{i1}{' | '.join(option.flags)}) REPLY='{option.values.spec}' ;;")
        out += [f"{i3}{i1}*) return 1 ;;", f"{i3}esac", f"{i3};;"]
    out += [f"{i2}*) return 1 ;;", f"{i1}esac", "}", ""]

    out += [
        "# REPLY: what positional argument number $2 (from 0) of command path $1 is; fails where there is none.",
        "__leafexplain_argument() {",
        f"{i1}case $1 in",
    ]
    for command in tree.walk():
        if not command.arguments:
            continue
        tests = []
        for index, argument in enumerate(command.arguments):
            test = f"$2 >= {index}" if argument.variadic else f"$2 == {index}"
            tests.append(f"(( {test} )); then REPLY='{argument.values.spec}'")
        chain = "if " + "; elif ".join(tests) + "; else return 1; fi"
        out.append(f"{i2}{_sh_case_label(command.path)}) {chain} ;;")
    out += [f"{i2}*) return 1 ;;", f"{i1}esac", "}"]
    return out


def bash_script(tree: Command) -> str:
    lines = [
        "# bash completion for leafexplain                          -*- shell-script -*-",
        *header("#"),
        "#",
        "# Install: leafexplain completion install bash, or copy this file to",
        "# ~/.local/share/bash-completion/completions/leafexplain, or source it from ~/.bashrc.",
        "# Needs bash 4.0 or later (mapfile, compopt), as bash-completion itself does.",
        "",
        *bash_like_tables(tree),
        "",
        "# Appends the words among $@ that start with $cur to COMPREPLY.",
        "__leafexplain_add_words() {",
        "    local word",
        "    for word; do",
        '        [[ $word == "$cur"* ]] && COMPREPLY+=("$word")',
        "    done",
        "    return 0",
        "}",
        "",
        "# Record values of the kinds $@ that start with $cur, at most " + str(MAX_CANDIDATES) + ".",
        "__leafexplain_list_values() {",
        "    local dir=${XDG_CACHE_HOME:-$HOME/.cache}/leafexplain/complete kind",
        "    local -a lists=() missing=()",
        "    for kind; do",
        "        # a list older than the record index (records changed since) is asked for again",
        '        if [[ -f $dir/$kind.txt && ! $dir/../index -nt $dir/$kind.txt ]]; then lists+=("$dir/$kind.txt")',
        '        else missing+=("$kind"); fi',
        "    done",
        "    if (( ${#missing[@]} )); then",
        '        for kind in "${missing[@]}"; do command leafexplain __complete "$kind" 2>/dev/null; done |',
        f'            LEAFEXPLAIN_PREFIX=$cur awk {AWK_FILTER} "${{lists[@]}}" -',
        "    else",
        f'        LEAFEXPLAIN_PREFIX=$cur awk {AWK_FILTER} "${{lists[@]}}"',
        "    fi",
        "}",
        "",
        "# Completes $cur as the value described by $@ (a spec from the tables above).",
        "__leafexplain_complete_value() {",
        "    local kind=$1",
        "    shift",
        "    case $kind in",
        '        choice) __leafexplain_add_words "$@" ;;',
        '        file) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;',
        '        dir) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;',
        '        list) mapfile -t COMPREPLY < <(__leafexplain_list_values "$@") ;;',
        "        command)",
        "            # The command's own words: its completion (from bash-completion), else file names.",
        "            if (( cmdstart )) && declare -F _command_offset >/dev/null; then",
        '                _command_offset "$cmdstart"',
        "            elif (( cmdstart )); then",
        '                compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur")',
        "            else",
        '                mapfile -t COMPREPLY < <(compgen -c -- "$cur")',
        "            fi",
        "            ;;",
        "    esac",
        "    return 0",
        "}",
        "",
        "_leafexplain() {",
        "    local cur=${COMP_WORDS[COMP_CWORD]} cmdpath='' word option='' REPLY",
        "    local -i i=1 npos=0 dashdash=0 cmdstart=0",
        "    COMPREPLY=()",
        "    while (( i < COMP_CWORD )); do",
        "        word=${COMP_WORDS[i]}",
        "        if (( !dashdash )) && [[ $word == -- ]]; then",
        "            dashdash=1",
        "        elif (( !dashdash )) && [[ $word == -?* ]]; then",
        '            if __leafexplain_option_value "$cmdpath" "$word"; then',
        "                # bash splits `--format=json` at '=' (COMP_WORDBREAKS): `--format` `=` `json`.",
        "                if (( i + 1 == COMP_CWORD )) && [[ $cur == = ]]; then option=$word cur=''; break; fi",
        "                [[ ${COMP_WORDS[i+1]} == = ]] && i+=1",
        "                if (( i + 1 == COMP_CWORD )); then option=$word; break; fi",
        "                i+=1",
        "            fi",
        '        elif (( !dashdash && npos == 0 )) && __leafexplain_subcommands "$cmdpath" &&',
        '            [[ " $REPLY " == *" $word "* ]]; then',
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
        "",
        "    if [[ -n $option ]]; then",
        '        __leafexplain_option_value "$cmdpath" "$option"',
        "        __leafexplain_complete_value $REPLY",
        "    elif (( !dashdash )) && [[ $cur == -* ]]; then",
        '        __leafexplain_options "$cmdpath" && __leafexplain_add_words $REPLY',
        '    elif (( !dashdash && npos == 0 )) && __leafexplain_subcommands "$cmdpath"; then',
        "        __leafexplain_add_words $REPLY",
        '    elif __leafexplain_argument "$cmdpath" "$npos"; then',
        "        __leafexplain_complete_value $REPLY",
        "    elif (( dashdash )); then",
        "        __leafexplain_complete_value file",
        "    else",
        '        __leafexplain_options "$cmdpath" && __leafexplain_add_words $REPLY',
        "    fi",
        "    return 0",
        "}",
        "",
        "complete -F _leafexplain leafexplain",
        "",
    ]
    return "\n".join(lines)
