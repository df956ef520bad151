"""Hooks: the user's own programs that decode runs at fixed points of a session, in Claude Code's format.

A settings file's `"hooks"` (`config.py`) names, per event (`events.py`), a matcher and the
commands to run. `Hooks` (`dispatch.py`) runs the matching ones in parallel (`running.py`), each
with the event's JSON on stdin, and reads what they say (`outcome.py`): exit 2 blocks, JSON
output decides. A repository's hooks run only once the user trusts its settings.
"""
