"""Own Files: what decode itself wrote in a folder that is not a git checkout.

In a git checkout, git says where a file came from: one it tracks came with the repository. A folder
that is not a checkout (a downloaded ZIP, a release tarball) says nothing: its `.decode/` may hold a
local settings file or a session log its author put there. So decode notes, in the user's home and
out of any repository's reach, the files it writes there that would grant or choose something:

    ~/.decode/own-files.json     {"/abs/path": "<sha256 of the bytes>" | "any"}

A settings file is noted with a hash of its bytes (edited since, it is no longer only decode's); a
session log, which grows with every turn, as "any". A file with no note is the folder's.
"""

import hashlib
import json
import logging
from pathlib import Path

from decode.config.harness_home import HARNESS_DIR, make_parent_dirs
from decode.config.locked_write import locked
from decode.files import write_atomic

logger = logging.getLogger(__name__)

OWN_FILES = HARNESS_DIR / "own-files.json"
ANY = "any"
"""The note of a file decode keeps writing to (a session log): its bytes are not compared."""


def in_checkout(folder: Path) -> bool:
    """Is there a `.git` in `folder` or above it? (Only a look: no git runs.)"""
    return any((parent / ".git").exists() for parent in (folder, *folder.parents))


def remember(path: Path, home: Path, data: bytes | None = None) -> None:
    """Note that decode wrote `path`: these bytes (`data`), or whatever it appends later (None)."""
    store = home / OWN_FILES
    make_parent_dirs(store)
    with locked(store):  # read afresh under the lock: another decode's note written meanwhile is kept
        notes = _notes(store)
        notes[str(path.resolve())] = ANY if data is None else hashlib.sha256(data).hexdigest()
        write_atomic(store, (json.dumps(notes, indent=2, sort_keys=True) + "\n").encode())


def remember_outside_checkout(path: Path, home: Path | None = None) -> None:
    """Note a file decode is about to write and keep writing (a session log), if no git checkout holds it.

    A note that cannot be written is logged, never raised: the file is then the folder's, which
    costs the user a question later, not the work in hand.
    """
    if in_checkout(path.parent):
        return
    try:
        remember(path, home or Path.home())
    except OSError as exc:  # TimeoutError included: another decode held the store too long
        logger.warning("could not note %s as decode's own: %s", path, exc)


def wrote(path: Path, home: Path, data: bytes | None = None) -> bool:
    """Did decode write `path`, and, for a file noted with its bytes, does it still hold `data`?"""
    if _linked(path):
        return False  # a link (an archive's) to a file decode wrote elsewhere borrows none of its note
    note = _notes(home / OWN_FILES).get(str(path.resolve()))
    if note == ANY:
        return True
    return note is not None and data is not None and note == hashlib.sha256(data).hexdigest()


def _linked(path: Path) -> bool:
    """Is `path`, or a folder between it and its `.decode/` (or `.claude/`), a symbolic link?"""
    for part in (path, *path.parents):
        if part.is_symlink():
            return True
        if part.name in (HARNESS_DIR.name, ".claude"):
            return False
    return False


def _notes(store: Path) -> dict[str, str]:
    """The notes; none when the file is missing or unreadable (a file is then the folder's: it asks)."""
    try:
        data = json.loads(store.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {key: value for key, value in data.items() if isinstance(value, str)} if isinstance(data, dict) else {}
