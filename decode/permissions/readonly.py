"""Read-only commands: what runs without asking in `default` mode when no rule allows it.

A short, closed list, as Claude Code has one (ADR-0046). A command qualifies only as written
(no wrapper, no `xargs`), with every word known before it runs, no pattern (`*.py`), and only
options the list knows to be harmless:

    ls  pwd  cat  head  tail  wc  sort  uniq  grep  rg  find
    git status | diff | log | show

`judge(words)` answers `ReadOnly` (with the words that name files: the gate checks each one is
inside the project), a reason the command is on the list but this use of it is not read-only
(`tail -f` never ends, `sort -o` writes, `find -exec` runs a command), or None (not on the list).
Everything else the gate checks still holds: hazards, redirections (`git log > f` writes a file),
deny and ask rules, secret files and decode's own folders.

How options are read (`readonly_options`): *known only* for `tail`, `sort`, `uniq`, `rg`, `find`
and git's own options (anything not listed refuses), *any but the blocked* for `ls`, `cat`,
`head`, `wc`, `grep` and git's subcommands, whose options are many and harmless. The tables of
each program are in `readonly_programs`.
"""

from decode.permissions.readonly_options import ReadOnly
from decode.permissions.readonly_programs import read_options
from decode.permissions.shell_glob import Glob

__all__ = ["NAMES", "ReadOnly", "judge"]

Words = tuple[str | None, ...]

NAMES = ("ls", "pwd", "cat", "head", "tail", "wc", "sort", "uniq", "grep", "rg", "find", "git")
"""The programs of the list (git: only `status`, `diff`, `log` and `show`)."""


def judge(words: Words) -> ReadOnly | str | None:
    """Is this command, as written, read-only? `ReadOnly`, a reason it is not, or None (not listed)."""
    if not words or words[0] not in NAMES:
        return None
    name = words[0]
    if any(word is None for word in words):
        return f"{name}: a word is only known at run time"
    if any(isinstance(word, Glob) for word in words):
        return f"{name}: a pattern ({next(w for w in words if isinstance(w, Glob))}) may name any file"
    return read_options(name, tuple(w for w in words[1:] if w is not None))
