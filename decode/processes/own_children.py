"""decode's own helper programs: children in a session of their own that no command left behind.

When a command ends alone, `process.end()` takes for its orphan any child of decode in a session
of its own born after the command started: the only way to find a process that left the command's
session, dropped its environment and closed its descriptors. But decode starts such children
itself too, outside `process.py`: host git for the hand-back (its own session, so a push's ssh
helper dies with it at the timeout), the warm sandbox's bwrap. Taken for orphans, they were killed
when a command ended beside them, and reaped from under asyncio or `Popen`, which then report a
wrong exit status.

So whoever starts one says so, around the start and for as long as the helper runs:

    with own_child() as mark:
        process = await asyncio.create_subprocess_exec(..., start_new_session=True)
        mark(process.pid)
        ... await process.wait()

Before `mark` (the fork window: the child runs, its pid not known yet) no new session leader is
adopted; after it, only the helper's session is left alone. Threads may start helpers (`git_sync`).
"""

import contextlib
import threading
from collections.abc import Callable, Generator

_lock = threading.Lock()
_helpers: dict[object, int | None] = {}
"""Each helper being started (None) or running (its pid, also its session's id)."""


@contextlib.contextmanager
def own_child() -> Generator[Callable[[int], None]]:
    """Mark a helper decode starts in a session of its own as no command's orphan, while the block runs."""
    token = object()
    with _lock:
        _helpers[token] = None

    def mark(pid: int) -> None:
        with _lock:
            _helpers[token] = pid

    try:
        yield mark
    finally:
        with _lock:
            del _helpers[token]


def starting() -> bool:
    """Is a helper being started, its pid not known yet?"""
    with _lock:
        return None in _helpers.values()


def sessions() -> frozenset[int]:
    """The sessions of the helpers running now (each leads its own)."""
    with _lock:
        return frozenset(pid for pid in _helpers.values() if pid is not None)
