"""A Plain Name: a bash word naming a file directly in the workspace (`a1`, `notes.txt`), looked up once.

The gate follows every word a command names through symlinks (`os.path.realpath`, a `lstat` per
component) and asks whether it names a folder (a `stat`: a program may read all of one). For a
plain name below the real workspace one `lstat` tells both, unless the name is a symlink: no
component but the last can be one, so the path as written is the real one, and the `lstat`'s mode
says whether it is a folder. `ls a1 … a64` names 64 of them, so this runs often.

Anything else (a symlink, a pattern word, `..`, a path with a `/`, an error other than "no such
file") is left to the full resolution, `PermissionGate.resolve`. `tests/unit/permissions/
test_plain_names.py` checks that the two give the same answer for every kind of name.
"""

import os
import stat

Looked = tuple[str, str, bool | None]
"""A word as the gate judges it: its path as written, its real path, and whether it is a folder
(None: not known yet; `PermissionGate._may_be_folder` asks when it matters)."""

_NOT_PLAIN = ("", ".", "..", "~")  # the workspace, its parent, the home folder


def look(workspace: str, word: str) -> Looked | None:
    """A plain name's file below the real `workspace` (written and real alike) and whether it is a
    folder; None when only the full resolution can tell."""
    if type(word) is not str or "/" in word or word in _NOT_PLAIN or workspace == "/":
        return None  # a `Glob` is judged as a pattern, not as the one file it spells
    path = f"{workspace}/{word}"
    try:
        mode = os.lstat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return path, path, False  # nothing there, so no link to follow
    except (OSError, ValueError):  # a name too long, an unreadable workspace, a NUL byte
        return None
    return None if stat.S_ISLNK(mode) else (path, path, stat.S_ISDIR(mode))
