"""Getting the text in: arguments, files, stdin and child processes, scanned as it streams, bounded in size.

`reading` opens what the user named, `stream` finds the stretches of a large input worth reading,
`collect` turns them into events (through `extract/`) and keeps their number bounded, and
`process` runs a command and does the same with its output as it passes through.
"""
