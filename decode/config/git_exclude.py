"""Keep `git status` clean: the first `.decode/` decode makes in a git checkout is excluded locally.

decode's first write into a project's `.decode/` also writes `.decode/.gitignore`, which ignores
the personal entries (the prompt history, sessions…). That file would itself show in `git
status` as new and untracked, in every checkout decode runs in. So it goes into the checkout's
own `.git/info/exclude` (what git reads for this clone only), as `/path/to/.decode/.gitignore`:

- never the user's `.gitignore`, a file the team shares and reviews;
- not the whole `.decode/`: what a team shares there (`settings.json`, `skills/`, `commands/`)
  still shows as new until it is committed (ADR-0146);
- a `.git` that is a link, a file (a linked worktree, a submodule) or anything else odd, an
  `info/` or `exclude` that is not a plain folder or file, is left alone; so is the user's own
  `~/.decode`. Any failure is logged, never raised: the write decode was making goes on.
"""

import logging
import os
import stat
from pathlib import Path

logger = logging.getLogger(__name__)

_GLOB = set("*?[\\!#\n\r")  # a path with these would need escaping in a git pattern: left alone
EXCLUDE_LIMIT = 1 << 20
"""Bytes of an existing `.git/info/exclude` decode reads at most: a bigger one is left alone."""


def git_checkout_of(folder: Path) -> Path | None:
    """The nearest folder at or above `folder` holding a `.git`; None outside any checkout."""
    for candidate in [folder, *folder.parents]:
        if os.path.lexists(candidate / ".git"):
            return candidate
    return None


def exclude_locally(home: Path) -> None:
    """Add `home`'s `.gitignore` to its checkout's `.git/info/exclude` (once; see the module docstring)."""
    project = home.parent.absolute()
    if project == Path.home().absolute() or (root := git_checkout_of(project)) is None:
        return
    pattern = "/" + (home.absolute() / ".gitignore").relative_to(root).as_posix()
    if _GLOB & set(pattern) or pattern != pattern.strip():
        return
    try:
        _append_once(root / ".git", pattern)
    except OSError as exc:
        logger.debug("%s not added to the git exclude file: %s", pattern, exc)


def _append_once(git: Path, pattern: str) -> None:
    if not stat.S_ISDIR(git.lstat().st_mode):
        return  # a link, or a gitfile (a linked worktree, a submodule): not ours to change
    info = git / "info"
    if not os.path.lexists(info):
        info.mkdir()
    if not stat.S_ISDIR(info.lstat().st_mode):
        return
    exclude = info / "exclude"
    if os.path.lexists(exclude):
        found = exclude.lstat()
        if not stat.S_ISREG(found.st_mode) or found.st_nlink > 1 or found.st_size > EXCLUDE_LIMIT:
            return  # a FIFO is waited on, a link or a hard link leads to another file, a huge one fills the memory
        text = exclude.read_text(encoding="utf-8", errors="replace")
        if pattern in text.splitlines():
            return
    else:
        text = ""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
    with os.fdopen(os.open(exclude, flags, 0o644), "a", encoding="utf-8") as file:
        file.write(("" if not text or text.endswith("\n") else "\n") + f"# decode's own, this clone only\n{pattern}\n")
