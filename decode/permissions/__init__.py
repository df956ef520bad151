"""Permissions: what decode may do without asking, what it must ask about, what it must never do.

`modes.py` and `types.py` name the pieces (Mode; Decision, Rule, Verdict), `rules.py` reads Claude-Code-style
rules, `shell.py` and `commands.py` read bash commands with a real parser, `paths.py` compares
resolved paths, `settings_files.py` merges the three settings layers, and `gate.py` is the
Permission Gate that decides. `decode permissions` is `decode/commands/permissions.py`.
"""
