"""Whether a file changed since it was read, without reading it: its `stat`.

A memory file or a skill is read before a model request only when its stamp changed (issue 27: a
turn of 200 requests read them 200 times). A write, a rename, a new link or a file where there was
none changes a stamp; so does a file rewritten in place keeping its size, unless that happens
within the same tick of the clock that stamps files as the read before it. So a read of a file
changed less than `SETTLED_NS` ago is not reused (git's rule for a "racily clean" file).
"""

import os
import stat
import time
from collections.abc import Iterable
from pathlib import Path

SETTLED_NS = 1_000_000_000
"""How long ago a file must have changed for a read of it to be reused."""

Stamp = tuple[int, ...] | None
"""A place's link and what it leads to: inode, mode, size, mtime, ctime of each; None: nothing there."""


def stamp(path: Path) -> Stamp:
    """The stamp of whatever is at `path` (a file, a folder, a link), or None."""
    try:
        link = os.lstat(path)
    except OSError:
        return None
    try:
        target = os.stat(path) if stat.S_ISLNK(link.st_mode) else link
    except OSError:  # a link to nothing
        target = link
    return tuple(
        value for st in (link, target) for value in (st.st_ino, st.st_mode, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    )


def settled(stamps: Iterable[Stamp]) -> bool:
    """Whether none of these changed too recently for a read of them to be reused."""
    limit = time.time_ns() - SETTLED_NS
    return all(s is None or max(s[4], s[9]) < limit for s in stamps)  # the ctimes: no one can set them back
