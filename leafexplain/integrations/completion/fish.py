"""The fish completion script, written from the command tree: one `complete` rule an option, a few helper functions."""

from __future__ import annotations

from leafexplain.integrations.completion.tree import (
    AWK_FILTER,
    MAX_CANDIDATES,
    PROG,
    Command,
    Option,
    Values,
    header,
    options_with_values,
)


def _fish_quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _fish_flags(option: Option) -> str:
    parts = []
    for flag in option.flags:
        if flag.startswith("--"):
            parts.append(f"-l {flag[2:]}")
        elif len(flag) == 2:
            parts.append(f"-s {flag[1]}")
        else:
            parts.append(f"-o {flag[1:]}")
    return " ".join(parts)


def _fish_values(values: Values) -> str:
    if values.kind == "choice":
        return "-a " + _fish_quote(" ".join(values.words))
    if values.kind == "file":
        return "-F"
    if values.kind == "dir":
        return "-a '(__fish_complete_directories)'"
    if values.kind == "list":
        return f"-a '(__leafexplain_values {' '.join(values.words)})'"
    if values.kind == "command":
        return "-a '(__leafexplain_command_line)'"
    return ""


def fish_script(tree: Command) -> str:
    takes_value = ["function __leafexplain_option_takes_value --argument-names cmdpath option", '    switch "$cmdpath"']
    subcommand = ["function __leafexplain_subcommand --argument-names cmdpath word", '    switch "$cmdpath"']
    for command in tree.walk():
        valued = options_with_values(command)
        if valued:
            flags = " ".join(f for o in valued for f in o.flags)
            takes_value += [f"        case {_fish_quote(command.path)}", f"            contains -- $option {flags}"]
            takes_value.append("            return")
        if command.subcommands:
            names = " ".join(sub.name for sub in command.subcommands)
            subcommand += [f"        case {_fish_quote(command.path)}", f"            contains -- $word {names}"]
            subcommand.append("            return")
    takes_value += ["    end", "    return 1", "end"]
    is_command = ["function __leafexplain_is_command --argument-names cmdpath npos", '    switch "$cmdpath"']
    for command in tree.walk():
        starts = [i for i, a in enumerate(command.arguments) if a.values.kind == "command"]
        if starts:
            test = " -ge " if command.arguments[starts[0]].variadic else " -eq "
            is_command += [f"        case {_fish_quote(command.path)}", f"            test $npos{test}{starts[0]}"]
            is_command.append("            return")
    is_command += ["    end", "    return 1", "end"]
    subcommand += ["    end", "    return 1", "end"]

    rules = ["complete -c leafexplain -f  # file names only where a rule below asks for them"]
    for command in tree.walk():
        at = f'__leafexplain_at "{command.path}"'
        rules.append("")
        rules.append(f"# {PROG} {command.path}".rstrip())
        for sub in command.subcommands:
            rules.append(
                f"complete -c leafexplain -n {_fish_quote(at + ' sub')} -a {sub.name} -d {_fish_quote(sub.help)}"
            )
        for option in command.options:
            rule = f"complete -c leafexplain -n {_fish_quote(at)} {_fish_flags(option)}"
            described = f" -d {_fish_quote(option.help)}" if option.help else ""
            if option.values is None:
                rules.append(rule + described)
            elif option.values.kind == "file":
                rules.append(rule + " -r -F" + described)
            elif option.values.kind in ("choice", "list"):
                # The values in a rule of their own: fish would show the option's description beside each.
                rules.append(f"{rule} -x {_fish_values(option.values)}")
                rules.append(rule + " -x" + described)
            else:
                rules.append(f"{rule} -x {_fish_values(option.values)}".rstrip() + described)
        for index, argument in enumerate(command.arguments):
            action = _fish_values(argument.values)
            if action:
                where = f"{at} {index}{'+' if argument.variadic else ''}"
                rules.append(f"complete -c leafexplain -n {_fish_quote(where)} {action}")

    lines = [
        "# fish completion for leafexplain",
        *header("#"),
        "#",
        "# Install: leafexplain completion install fish, or copy this file to",
        "# ~/.config/fish/completions/leafexplain.fish.",
        "",
        *takes_value,
        "",
        *subcommand,
        "",
        *is_command,
        "",
        "# Sets __leafexplain_path (the command being completed), __leafexplain_npos (how many positional",
        "# arguments it has before the cursor) and __leafexplain_cmdstart (where the command that `run`",
        "# starts begins, 0 if not yet) from the words before the cursor.",
        "function __leafexplain_state",
        "    set -l cmdpath ''",
        "    set -l npos 0",
        "    set -l dashdash 0",
        "    set -l cmdstart 0",
        "    set -l tokens (commandline -opc)",
        "    set -l i 1",
        "    while test $i -lt (count $tokens)",
        "        set i (math $i + 1)",
        "        set -l word $tokens[$i]",
        '        if test $dashdash = 0; and test "$word" = --',
        "            set dashdash 1",
        '        else if test $dashdash = 0; and string match -q -- "-?*" "$word"',
        '            if not string match -q -- "*=*" "$word"; and __leafexplain_option_takes_value "$cmdpath" "$word"',
        "                set i (math $i + 1)",
        "            end",
        '        else if test $dashdash = 0; and test $npos = 0; and __leafexplain_subcommand "$cmdpath" "$word"',
        '            set cmdpath (string trim -- "$cmdpath $word")',
        "        else",
        f"            # `leafexplain TEXT` is `leafexplain {tree.default} TEXT`",
        f'            test -n "$cmdpath"; or set cmdpath {tree.default}',
        "            # A command to run owns the rest of the line.",
        '            if test $cmdstart = 0; and __leafexplain_is_command "$cmdpath" $npos',
        "                set cmdstart $i",
        "                set dashdash 1",
        "            end",
        "            set npos (math $npos + 1)",
        "        end",
        "    end",
        "    set -g __leafexplain_path $cmdpath",
        "    set -g __leafexplain_npos $npos",
        "    set -g __leafexplain_cmdstart $cmdstart",
        "    set -g __leafexplain_dashdash $dashdash",
        "end",
        "",
        "# True when the command being completed is $argv[1] and the word being completed can be",
        "# one of its options ($argv[2] not given), a subcommand (`sub`), or its positional argument",
        "# number N (`N`) or number N or later (`N+`), from 0.",
        "function __leafexplain_at",
        "    __leafexplain_state",
        '    test "$__leafexplain_path" = "$argv[1]"; or return 1',
        "    if not set -q argv[2]",
        "        test $__leafexplain_dashdash = 0",
        "    else if test $argv[2] = sub",
        "        test $__leafexplain_dashdash = 0; and test $__leafexplain_npos = 0",
        "    else if string match -q -- '*+' $argv[2]",
        "        test $__leafexplain_npos -ge (string trim -r -c + -- $argv[2])",
        "    else",
        "        test $__leafexplain_npos -eq $argv[2]",
        "    end",
        "end",
        "",
        "# The completions of the command that `run` starts, as if it were typed alone.",
        "function __leafexplain_command_line",
        "    __leafexplain_state",
        "    set -l current (commandline -ct)",
        "    if test $__leafexplain_cmdstart = 0",
        '        complete -C "$current"',
        "    else",
        "        set -l words (commandline -opc)",
        "        set words $words[$__leafexplain_cmdstart..-1]",
        '        complete -C (string join -- " " (string escape -- $words))" $current"',
        "    end",
        "end",
        "",
        f"# Record values of the kinds $argv that start with the current token, at most {MAX_CANDIDATES}.",
        "function __leafexplain_values",
        "    set -l prefix (commandline -ct | string replace -r -- '^-[^=]*=' '')",
        "    set -l dir $XDG_CACHE_HOME",
        '    test -n "$dir"; or set dir ~/.cache',
        "    set -l lists",
        "    set -l missing",
        "    for kind in $argv",
        "        # a list older than the record index (records changed since) is asked for again",
        "        set -l list $dir/leafexplain/complete/$kind.txt",
        "        if test -f $list; and not test $dir/leafexplain/index -nt $list",
        "            set -a lists $list",
        "        else",
        "            set -a missing $kind",
        "        end",
        "    end",
        "    if set -q missing[1]",
        "        for kind in $missing",
        "            command leafexplain __complete $kind 2>/dev/null",
        f'        end | LEAFEXPLAIN_PREFIX="$prefix" awk {AWK_FILTER} $lists -',
        "    else",
        f'        LEAFEXPLAIN_PREFIX="$prefix" awk {AWK_FILTER} $lists',
        "    end",
        "end",
        "",
        *rules,
        "",
    ]
    return "\n".join(lines)
