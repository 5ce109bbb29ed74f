# PowerShell completion for leafexplain
# A loader, written by hand: it loads the completion script leafexplain writes from its command
# table (`leafexplain completion show powershell`), so that it always matches the leafexplain
# installed.
#
# `leafexplain completion install powershell` installs the script itself instead. Or dot-source
# this file from your profile:
#     . /path/to/leafexplain.ps1
$leafexplainCompletion = (& leafexplain completion show powershell 2>$null) -join "`n"
if ($leafexplainCompletion) { . ([scriptblock]::Create($leafexplainCompletion)) }
Remove-Variable leafexplainCompletion -ErrorAction SilentlyContinue
