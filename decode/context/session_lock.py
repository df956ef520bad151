"""The Session Lock: one decode at a time writes a Session Log.

Two decodes continuing the same session would interleave their turns in one file, each
replaying a history the other keeps changing. So a session's log is held, for the life of the
session, by an exclusive `flock` on a small file beside it (`<log name>.lock`, holding the
holder's pid for the message). A second decode that finds it held does not write to the log:
it forks the session (`session_fork.py`).

The kernel releases a `flock` when its holder dies, so a decode killed mid-session never blocks
the next one; the lock file it leaves behind is taken over. A lock file is removed when its
holder lets go; a taker that opened it just before makes sure it still holds the file at that
path (the same inode), or tries again. Within one process the hold is shared: the REPL that
`/resume`s its own session (or rebuilds its conversation) holds it once.
"""

import contextlib
import fcntl
import os
import weakref
from pathlib import Path


class SessionBusy(Exception):
    """Another decode process holds the session's log (`pid`, when it wrote it)."""

    def __init__(self, log: Path, pid: int | None) -> None:
        self.log, self.pid = log, pid
        holder = f"another decode (pid {pid})" if pid else "another decode"
        super().__init__(f"{log.name} is open in {holder}")


class SessionLock:
    """This process's hold on one session log (see the module docstring); `release()` lets go."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path, self.holders = path, 1
        self._let_go = weakref.finalize(self, _let_go, path, fd)  # at exit too, if never released

    def release(self) -> None:
        """Let go (when the last holder in this process does)."""
        self.holders -= 1
        if self.holders <= 0:
            _HELD.pop(self.path, None)
            self._let_go()


def _let_go(path: Path, fd: int) -> None:
    with contextlib.suppress(OSError):
        path.unlink()  # while still locked: a taker that opened it meanwhile sees the inode gone
    os.close(fd)


_HELD: dict[Path, SessionLock] = {}
"""The locks this process holds, by lock file."""


def lock_path(log: Path) -> Path:
    return log.with_name(log.name + ".lock")


def hold(log: Path) -> SessionLock:
    """Hold session log `log` for this process; `SessionBusy` when another process does."""
    path = lock_path(log)
    held = _HELD.get(path)
    if held is not None:
        held.holders += 1
        return held
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = _pid_in(fd)
            os.close(fd)
            raise SessionBusy(log, pid) from None
        if _same_file(fd, path):
            break
        os.close(fd)  # its holder removed it as we took it: take the one at the path now
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    lock = _HELD[path] = SessionLock(path, fd)
    return lock


def _same_file(fd: int, path: Path) -> bool:
    try:
        return os.path.samestat(os.fstat(fd), os.stat(path, follow_symlinks=False))
    except FileNotFoundError:
        return False


def _pid_in(fd: int) -> int | None:
    """The pid the holder wrote (None before it did, or if the file holds something else)."""
    try:
        text = os.pread(fd, 32, 0).decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None
