"""The Harness Home: `.decode/` in the directory decode was started from.

Everything decode writes for itself lives there: the prompt history, session logs, full tool
outputs, the notes file and the local permission rules. Some of it is one person's and must
never reach the team's repository, so the first write into a new `.decode/` also puts a
`.gitignore` there naming those files (and, in a git checkout, that file in the clone's own
`.git/info/exclude`: `git_exclude.py`). What a team shares (`settings.json`, `skills/`) stays
committable.

The personal entries are private as well: what the user typed, what the model answered and what
commands printed may hold secrets, and other accounts on the machine must not read them. Their
directories (`sessions/`, `tool-output/`) are made `0700`; the files directly in `.decode/`
(`history`, `MEMORY.md`, `settings.local.json`) are created `0600` by `make_parent_dirs` before
their writer opens them, and an older, wider one is narrowed. Files inside the private directories
are created `0600` by their writers (`private_open`).
"""

import errno
import logging
import os
import stat
from pathlib import Path
from typing import BinaryIO

from decode.config.git_exclude import exclude_locally
from decode.files import write_atomic

logger = logging.getLogger(__name__)

HARNESS_DIR = Path(".decode")
PERSONAL = (
    "history",
    "sessions/",
    "tool-output/",
    "MEMORY.md",
    "settings.local.json",
    "workspaces/",  # `--repo` clones (ADR-0066), not for the team's repository either  # [lesson 19]
)
"""Entries of `.decode/` that belong to one person and one machine."""
PRIVATE_FILE_MODE = 0o600
PRIVATE_DIR_MODE = 0o700

_IGNORE_TEXT = "# Written by decode: these files are yours alone, not the team's.\n" + "\n".join(PERSONAL) + "\n"
_PERSONAL_DIRS = {entry.rstrip("/") for entry in PERSONAL if entry.endswith("/")}
_PERSONAL_FILES = {entry for entry in PERSONAL if not entry.endswith("/")}


def make_parent_dirs(path: Path) -> None:
    """Create the directories above `path` (like `mkdir -p`).

    When one of them is a `.decode/` directory without a `.gitignore`, that file is written first,
    so personal files are ignored by git from the moment they exist. When `path` is a personal
    entry of that `.decode/`, its directory is made private, or the file itself is created private
    (empty) if it is one of the files directly in `.decode/` (see the module docstring).
    """
    home = next((parent for parent in path.parents if parent.name == HARNESS_DIR.name), None)
    if home is not None:
        _refuse_a_way_out(home, path)
        home.mkdir(parents=True, exist_ok=True)
        ignore = home / ".gitignore"
        if not ignore.exists():  # whole or not at all: an empty one on a full disk would stay forever
            write_atomic(ignore, _IGNORE_TEXT.encode("utf-8"))
            exclude_locally(home)  # and that file stays out of `git status` (this clone's .git/info/exclude)
    path.parent.mkdir(parents=True, exist_ok=True)
    if home is None:
        return
    entry = path.relative_to(home).parts
    if len(entry) > 1 and entry[0] in _PERSONAL_DIRS:
        _narrow(home / entry[0], PRIVATE_DIR_MODE)
    elif len(entry) == 1 and entry[0] in _PERSONAL_FILES:
        try:
            # O_NONBLOCK: a FIFO planted in its place is an error here (ENXIO), not a wait for a reader.
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, PRIVATE_FILE_MODE))
        except OSError as exc:  # a symlink, a directory…: its writer meets the same problem and says so
            logger.debug("cannot create %s privately: %s", path, exc)
            return
        _narrow(path, PRIVATE_FILE_MODE)


class OutsideHarnessHome(OSError):
    """A project's `.decode/` (or a folder or file in it) links somewhere outside the project."""

    def __init__(self, path: Path, target: Path) -> None:
        super().__init__(
            errno.EXDEV, f"leads outside the project (to {target}): decode does not write there", str(path)
        )

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


def _refuse_a_way_out(home: Path, path: Path) -> None:
    """Refuse to write through a link that a cloned repository planted in its `.decode/`.

    A project's `.decode` linked to `/tmp/elsewhere`, `.decode/sessions` linked to another project
    or `.decode/history` linked to `~/.bashrc` would put the user's sessions, rules and typing
    wherever the repository chose. The user's own `~/.decode` may hold links (dotfiles managers
    make them): only the user made those.
    """
    if (out := leads_out(home, path)) is not None:
        raise OutsideHarnessHome(*out)


def leads_out(home: Path, path: Path) -> tuple[Path, Path] | None:
    """(the link, where it leads) when `path` in the harness home `home` is really outside its
    project; None when it is inside, not there yet, or `home` is the user's own `~/.decode`."""
    project = home.parent
    if project.absolute() == Path.home().absolute():
        return None
    below = [path, *path.parents[: len(path.parents) - len(project.parents) - 1]]  # path up to `.decode`
    existing = next((name for name in below if name.exists() or name.is_symlink()), None)
    if existing is None:  # nothing there yet: what mkdir makes is real folders
        return None
    root, target = project.resolve(), existing.resolve()
    return None if root in target.parents else (existing, target)


def private_open(path: Path, mode: str = "xb") -> BinaryIO:
    """Open a new file readable and writable by the user only: `xb` (must not exist) or `wb`."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_EXCL if mode == "xb" else os.O_TRUNC)
    return os.fdopen(os.open(path, flags, PRIVATE_FILE_MODE), "wb")


def _narrow(path: Path, mode: int) -> None:
    """Take away the group's and others' access to `path`, if it has any and is ours."""
    try:
        info = os.lstat(path)
        if stat.S_ISLNK(info.st_mode) or stat.S_IMODE(info.st_mode) & 0o077 == 0:
            return
        os.chmod(path, stat.S_IMODE(info.st_mode) & mode)
    except OSError as exc:  # not ours, or a read-only filesystem: the file is still usable
        logger.debug("cannot make %s private: %s", path, exc)
