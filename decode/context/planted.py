"""A Session Log that came with the repository: git tracks it, so whoever wrote the repository wrote it.

Resuming such a log must not let it choose what only the user chooses: the sandbox the run leaves
and the permission mode it runs in (the composition root asks `came_with_repository`). A fork of
such a log (`--fork-session`, or a resumed session another decode held) is a copy of what it
wrote: `lineage` follows a log back to the ones it was forked from. In a folder that is not a git
checkout (an unpacked archive) git cannot say; there a log is the user's only when decode noted it
as its own when it began it (`own_files`).
"""

import re
from pathlib import Path

from decode.config import own_files
from decode.sandbox.host_git import GitError, git_sync


def came_with_repository(log: Path) -> bool:
    """True when `log` is a file git tracks in the repository around it (`git ls-files`), or, outside
    any git checkout, a log decode did not begin there."""
    if not log.is_file():
        return False
    if not own_files.in_checkout(log.parent):
        return not own_files.wrote(log, Path.home())
    try:
        result = git_sync("ls-files", "--error-unmatch", "--", log.name, cwd=log.parent)
    except GitError:  # no git here: nothing can be tracked
        return False
    # 1: git answered "not tracked". 128 (a `.git` file leading nowhere, an empty `.git/`: "not a
    # git repository"; dubious ownership) or a time-out: git could not say, so the log is not the user's.
    return result.code != 1


FORKS_FOLLOWED = 32
"""How far back `lineage` follows `forked_from` (a planted log could claim a long chain)."""
_ID = re.compile(r"[0-9a-z-]{1,64}")


def lineage(log: Path) -> list[Path]:
    """`log`, then the log it was forked from (its header's `forked_from`), and so on, as far as
    they are still in its directory: a fork of a log the repository planted is that log's too."""
    from decode.context.replay import first_line, open_log, read_header
    from decode.context.session_log import SessionError

    logs = [log]
    while len(logs) < FORKS_FOLLOWED:
        try:
            with open_log(logs[-1]) as file:
                parent = read_header(first_line(file), logs[-1]).forked_from
        except (OSError, SessionError):
            break
        if parent is None or not _ID.fullmatch(parent):  # an id, never a pattern for the glob below
            break
        found = sorted(log.parent.glob(f"*_{parent}.jsonl"))
        if not found or found[0] in logs:
            break
        logs.append(found[0])
    return logs
