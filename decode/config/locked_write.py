"""Changing a file that other decode processes may change at the same time.

Saving an "always" rule reads the settings file, adds the rule and writes the file back. Two
decodes doing that at once both read the old file, and the second write drops the first one's
rule. So every such read-modify-write runs inside `locked(path)`: an exclusive `flock` on the
file's directory, which the next writer waits for, and which the kernel releases when its holder
dies (a killed decode never blocks the next one). Inside, the file is read afresh, changed, and
replaced in one step (`write_atomic`: a temporary file, fsync, `os.replace`, the mode kept).

The lock is on the directory, not on the file: `os.replace` puts a new file (a new inode) at the
path, so a lock on the old file would guard nothing; and a lock file beside it would be one more
file in the user's `.decode/` or home. Writers of one directory wait for each other, briefly.
"""

import contextlib
import errno
import fcntl
import os
import time
from collections.abc import Generator
from pathlib import Path

LOCK_WAIT_SECONDS = 10.0
"""How long a writer waits for another to finish before giving up (a write takes milliseconds)."""


@contextlib.contextmanager
def locked(path: Path, *, wait: float = LOCK_WAIT_SECONDS) -> Generator[None]:
    """Hold the write lock of `path` (on its directory, created if missing) for the block.

    Raises `TimeoutError` naming the file when another process holds it longer than `wait` seconds.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    directory = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        _acquire(directory, path, wait)
        yield
    finally:
        os.close(directory)  # closing the last descriptor releases the lock


def _acquire(directory: int, path: Path, wait: float) -> None:
    deadline = time.monotonic() + wait
    pause = 0.001
    while True:
        try:
            fcntl.flock(directory, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        if time.monotonic() >= deadline:
            raise TimeoutError(errno.ETIMEDOUT, f"another process kept it locked for {wait:g} s", str(path))
        time.sleep(pause)  # polled, not blocking: a stuck holder must not hang decode
        pause = min(pause * 2, 0.05)
