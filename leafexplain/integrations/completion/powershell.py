"""The PowerShell completion script, written from the command tree: a native argument completer with its tables."""

from __future__ import annotations

from leafexplain.integrations.completion.tree import MAX_CANDIDATES, Command, header, options_with_values


def _ps_quote(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def powershell_script(tree: Command) -> str:
    i3, i4 = " " * 12, " " * 16
    subcommands = ["        $subcommands = @{"]
    options = ["        $options = @{"]
    option_values = [
        "        # Ordinal: -f and -F can be different options.",
        "        $optionValues = [System.Collections.Generic.Dictionary[string, string]]::new(",
        "            [System.StringComparer]::Ordinal)",
    ]
    arguments = ["        $arguments = @{"]
    for command in tree.walk():
        key = _ps_quote(command.path)
        if command.subcommands:
            subcommands.append(f"{i3}{key} = @(")
            subcommands += [f"{i4}, @({_ps_quote(s.name)}, {_ps_quote(s.help or s.name)})" for s in command.subcommands]
            subcommands.append(f"{i3})")
        options.append(f"{i3}{key} = @(")
        options += [f"{i4}, @({_ps_quote(f)}, {_ps_quote(o.help or f)})" for o in command.options for f in o.flags]
        options.append(f"{i3})")
        for option in options_with_values(command):
            assert option.values is not None
            for flag in option.flags:
                option_values.append(
                    f"        $optionValues.Add({_ps_quote(f'{command.path} {flag}')}, {_ps_quote(option.values.spec)})"
                )
        if command.arguments:
            arguments.append(f"{i3}{key} = @(")
            arguments += [
                f"{i4}, @({_ps_quote(a.values.spec)}, ${'true' if a.variadic else 'false'})" for a in command.arguments
            ]
            arguments.append(f"{i3})")
    subcommands.append("        }")
    options.append("        }")
    arguments.append("        }")

    body = f"""\
# PowerShell completion for leafexplain
{chr(10).join(header("#"))}
#
# Install: leafexplain completion install powershell, or dot-source this file from your profile:
#     . /path/to/leafexplain.ps1

Register-ArgumentCompleter -Native -CommandName 'leafexplain', 'leafexplain.exe' -ScriptBlock {{
    param($wordToComplete, $commandAst, $cursorPosition)

    function New-LeafexplainTables {{
{chr(10).join(subcommands)}
{chr(10).join(options)}
{chr(10).join(option_values)}
{chr(10).join(arguments)}
        @{{ Subcommands = $subcommands; Options = $options; OptionValues = $optionValues; Arguments = $arguments }}
    }}

    # Record values of the given kinds that start with $prefix, at most {MAX_CANDIDATES}.
    function Get-LeafexplainValues([string[]] $kinds, [string] $prefix) {{
        $cache = if ($env:XDG_CACHE_HOME) {{ $env:XDG_CACHE_HOME }} else {{ Join-Path $HOME '.cache' }}
        $dir = Join-Path (Join-Path $cache 'leafexplain') 'complete'
        $pattern = [System.Management.Automation.WildcardPattern]::Escape($prefix) + '*'
        @(foreach ($kind in $kinds) {{
            $list = Join-Path $dir "$kind.txt"
            $index = Join-Path (Join-Path $cache 'leafexplain') 'index'
            # a list older than the record index (records changed since) is asked for again
            $fresh = (Test-Path -LiteralPath $list -PathType Leaf) -and -not ((Test-Path -LiteralPath $index) -and
                (Get-Item -LiteralPath $index).LastWriteTime -gt (Get-Item -LiteralPath $list).LastWriteTime)
            if ($fresh) {{
                $lines = [System.IO.File]::ReadAllLines($list)
            }} else {{
                $lines = @(try {{ & leafexplain __complete $kind 2>$null }} catch {{ }})
            }}
            @($lines) -like $pattern
        }}) | Select-Object -First {MAX_CANDIDATES}
    }}

    # What positional argument number $npos (from 0) of $cmdpath is; $null where there is none.
    function Get-LeafexplainArgument($tables, [string] $cmdpath, [int] $npos) {{
        if (-not $tables.Arguments.ContainsKey($cmdpath)) {{ return $null }}
        $specs = @($tables.Arguments[$cmdpath])
        $last = $specs[$specs.Count - 1]
        if ($npos -lt $specs.Count) {{ return $specs[$npos][0] }}
        if ($last[1]) {{ return $last[0] }}
        return $null
    }}

    function New-LeafexplainResult([string] $text, [string] $tip, [string] $type) {{
        if (-not $tip) {{ $tip = $text }}
        [System.Management.Automation.CompletionResult]::new($text, $text, $type, $tip)
    }}

    $tables = New-LeafexplainTables
    $words = @($commandAst.CommandElements | Where-Object {{ $_.Extent.StartOffset -lt $cursorPosition }} |
        ForEach-Object {{ $_.Extent.Text }})
    # The word under the cursor is the one being completed, not one to walk over.
    if ($wordToComplete -ne '' -and $words.Count -gt 0) {{ $words = @($words | Select-Object -SkipLast 1) }}

    $cmdpath = ''
    $npos = 0
    $dashdash = $false
    $option = $null
    $current = $wordToComplete
    $valuePrefix = ''
    for ($i = 1; $i -lt $words.Count; $i++) {{
        $word = $words[$i]
        if (-not $dashdash -and $word -eq '--') {{
            $dashdash = $true
        }} elseif (-not $dashdash -and $word -like '-?*') {{
            if ($word -notlike '*=*' -and $tables.OptionValues.ContainsKey("$cmdpath $word")) {{
                if ($i + 1 -ge $words.Count) {{ $option = $word; break }}
                $i++
            }}
        }} elseif (-not $dashdash -and $npos -eq 0 -and $tables.Subcommands.ContainsKey($cmdpath) -and
                  @($tables.Subcommands[$cmdpath] | ForEach-Object {{ $_[0] }}) -ccontains $word) {{
            $cmdpath = "$cmdpath $word".Trim()
        }} else {{
            # `leafexplain TEXT` is `leafexplain {tree.default} TEXT`
            if ($cmdpath -eq '') {{ $cmdpath = '{tree.default}' }}
            # A command to run owns the rest of the line.
            if ((Get-LeafexplainArgument $tables $cmdpath $npos) -eq 'command') {{ $dashdash = $true }}
            $npos++
        }}
    }}
    if (-not $option -and -not $dashdash -and $current -like '-?*=*') {{
        $name = $current.Substring(0, $current.IndexOf('='))
        if ($tables.OptionValues.ContainsKey("$cmdpath $name")) {{
            $option = $name
            $valuePrefix = "$name="
            $current = $current.Substring($name.Length + 1)
        }}
    }}

    # An empty answer lets PowerShell complete file names, which is what `file` and `dir` want.
    $argument = Get-LeafexplainArgument $tables $cmdpath $npos
    $spec = $null
    if ($option) {{
        $spec = $tables.OptionValues["$cmdpath $option"]
    }} elseif (-not $dashdash -and $current -like '-*') {{
        $choices = $tables.Options[$cmdpath]; $type = 'ParameterName'
    }} elseif (-not $dashdash -and $npos -eq 0 -and $tables.Subcommands.ContainsKey($cmdpath)) {{
        $choices = $tables.Subcommands[$cmdpath]; $type = 'ParameterValue'
    }} elseif ($null -ne $argument) {{
        $spec = $argument
    }} elseif (-not $dashdash) {{
        $choices = $tables.Options[$cmdpath]; $type = 'ParameterName'
    }}

    if ($spec) {{
        $kind, $specWords = $spec -split ' '
        if ($kind -eq 'choice') {{
            $choices = @($specWords | ForEach-Object {{ , @($_, $_) }}); $type = 'ParameterValue'
        }} elseif ($kind -eq 'list') {{
            Get-LeafexplainValues $specWords $current | ForEach-Object {{
                New-LeafexplainResult "$valuePrefix$_" $_ 'ParameterValue'
            }}
            return
        }} else {{
            return
        }}
    }}
    foreach ($choice in $choices) {{
        if ($choice[0].StartsWith($current, [System.StringComparison]::OrdinalIgnoreCase)) {{
            New-LeafexplainResult "$valuePrefix$($choice[0])" $choice[1] $type
        }}
    }}
}}
"""
    return body
