"""Every program decode starts is tracked until everything it started is gone (ADR-0043).

A command like `pytest -x & sleep 1000` starts children and grandchildren; `setsid sleep 1000 &`
or a double fork leaves the command's process group altogether. Killing only the `bash` we
started (or only its group) would orphan them: they keep running, and keep our output pipes
open. So decode tracks every program it starts and ends what that program left:

- each program starts a new session (`setsid`): it leads a fresh process group, killed whole;
- decode is a *child subreaper* (Linux `PR_SET_CHILD_SUBREAPER`): an orphan re-parents to decode
  instead of to init, so whatever a command started stays below decode in the process tree,
  found by walking down from decode's own children (`process_tree.py`), never every process;
- each program carries a tag in its environment (`DECODE_PROCESS_TAG`); which program each
  process below decode belongs to is `ownership.py`'s question;
- when the program ends (it exits, times out or is aborted), everything that belongs to it gets
  SIGKILL, again until nothing is left (a process may fork while it is killed), and is reaped;
- on decode's own exit (`end_all`, also what the front ends call on SIGTERM and SIGHUP) every
  tracked program is ended so.

A process that leaves decode's tree altogether (a daemon started through systemd or docker) is
the sandbox's job. Elsewhere than Linux (no /proc, no subreaper), the process group is all there is.
"""

import asyncio
import atexit
import contextlib
import logging
import os
import secrets
import select
import signal
import sys
import time
from collections.abc import Generator, Sequence
from dataclasses import dataclass, field
from typing import Any

from decode.processes import process_tree
from decode.processes.ownership import owners
from decode.processes.process_tree import PROC, Proc, below_decode, read_stat

logger = logging.getLogger(__name__)

END_S = 2.0
"""How long ending a program's processes may take (SIGKILL is immediate; a process stuck in the kernel is not)."""
PR_SET_CHILD_SUBREAPER = 36


@dataclass(eq=False)
class Tracked:
    """A program decode started, known until everything it started is gone."""

    leader: int
    """Its pid: also its process group and session id."""
    tag: str
    pipes: frozenset[str] = field(default_factory=frozenset)
    """Its output pipes as `/proc/PID/fd` links name them (`pipe:[1234]`)."""
    start: int = 0
    """When it started, in clock ticks after boot (/proc's `starttime`)."""


_tracked: dict[str, Tracked] = {}
_children: set[int] = set()  # the programs decode started: asyncio reaps them (reaped here, it warns)
_subreaper = _exit_hook = False
_spawning = 0
"""Programs being started (forked, not tracked yet): `end()` must not take one for an orphan."""
_ends = 0
"""How many times `end_all` ran: a program it could not see (being started) is ended once started."""


def become_subreaper() -> bool:
    """Make decode the subreaper of everything it starts (Linux); False where that is not possible."""
    global _subreaper
    if not _subreaper and sys.platform == "linux":
        try:
            import ctypes  # only to become a subreaper, once

            libc = ctypes.CDLL(None, use_errno=True)
            _subreaper = libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
        except (OSError, AttributeError):
            _subreaper = False
    return _subreaper


def track(leader: int, tag: str, pipes: Sequence[int] = (), since: int | None = None) -> Tracked:
    """Start tracking the program `leader` (started with `TAG_VARIABLE=tag`, writing to `pipes`);
    `since`: `ticks_now()` before it started (it may be over, reaped, gone from /proc by now)."""
    global _exit_hook
    if not _exit_hook:  # whatever way decode leaves, nothing it started stays
        _exit_hook = True
        atexit.register(end_all)
    if since is None:
        since = proc.start if (proc := read_stat(leader)) is not None else process_tree.ticks_now()
    tracked = Tracked(leader, tag, frozenset(f"pipe:[{os.fstat(fd).st_ino}]" for fd in pipes), since)
    _tracked[tag] = tracked
    return tracked


def new_tag() -> str:
    return secrets.token_hex(8)


def kill_group(pid: int) -> None:
    """SIGKILL every process of the group led by `pid` (gone already is fine)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


@contextlib.contextmanager
def spawning() -> Generator[None]:
    """Around starting a program until it is tracked: meanwhile no new session leader is an orphan."""
    global _spawning
    _spawning += 1
    try:
        yield
    finally:
        _spawning -= 1


async def start_tracked(
    argv: Sequence[str], tag: str, since: int, pipes: Sequence[int] = (), **options: Any
) -> asyncio.subprocess.Process:
    """`create_subprocess_exec` in a session of its own (pgid == pid), which a cancellation cannot cut short.

    The program runs, and may start others, before asyncio has finished connecting it; cancelled
    then, asyncio would kill only the leader. So the start always completes, and a cancelled one
    (or one `end_all` missed: not tracked yet) ends the program and everything it started.
    """
    ends = _ends
    start = asyncio.ensure_future(asyncio.create_subprocess_exec(*argv, start_new_session=True, **options))
    try:
        process = await asyncio.shield(start)
        _children.add(process.pid)
        if _ends != ends:  # `end_all` ran while it started, before it could be tracked: it ends now
            release(track(process.pid, tag, pipes, since))
            kill_group(process.pid)
        return process
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            process = await start
            release(track(process.pid, tag, pipes, since))
            kill_group(process.pid)
            await process.wait()
        raise


def _signal(proc: Proc) -> int | None:
    """SIGKILL `proc` if its pid still names it; a pidfd to wait on (None: gone, or no pidfds)."""
    try:
        fd = os.pidfd_open(proc.pid)
    except (OSError, AttributeError):
        # Gone, or no pidfds here: a plain kill (the pid cannot be reused while it is our zombie).
        with contextlib.suppress(OSError):
            if (now := read_stat(proc.pid)) is not None and now.start == proc.start:
                os.kill(proc.pid, signal.SIGKILL)
        return None
    if (now := read_stat(proc.pid)) is None or now.start != proc.start:  # the pid names another process now
        os.close(fd)
        return None
    with contextlib.suppress(OSError):
        signal.pidfd_send_signal(fd, signal.SIGKILL)
    return fd


def _wait_gone(fds: list[int], deadline: float) -> None:
    """Wait until the processes behind `fds` are dead (a pidfd turns readable), or the deadline."""
    poller = select.poll()
    for fd in fds:
        poller.register(fd, select.POLLIN)
    pending = set(fds)
    while pending and (left := deadline - time.monotonic()) > 0:
        for fd, _ in poller.poll(left * 1000):
            pending.discard(fd)
            poller.unregister(fd)
    for fd in fds:
        os.close(fd)


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def end(tracked: Tracked) -> int:
    """SIGKILL everything that belongs to `tracked`, its leader included, and reap what is ours.

    Returns how many live processes were killed. Never reaps a program decode started: asyncio does.
    """
    if not PROC.joinpath("self", "stat").exists():  # no /proc: the group is all there is
        kill_group(tracked.leader)
        return 0
    known = [*_tracked.values(), *([] if tracked.tag in _tracked else [tracked])]
    adopt = tracked if len(known) == 1 else None  # alone: the orphans nothing else claims are its
    me, killed, deadline = os.getpid(), set[tuple[int, int]](), time.monotonic() + END_S
    while True:
        table = below_decode()
        _children.intersection_update(table)  # the rest were reaped by asyncio
        leaders = _children | {t.leader for t in known}
        live = []
        for pid, owner in owners(table, known, adopt, starting=_spawning > 0).items():
            proc = table[pid]
            if proc.state in ("Z", "X"):
                if proc.ppid == me and pid not in leaders:
                    _reap(pid)
            elif owner is tracked:
                live.append(proc)
        for proc in table.values():  # what we killed and lost sight of (a zombie has no environment)
            if (proc.pid, proc.start) in killed and proc.state == "Z" and proc.ppid == me and proc.pid not in leaders:
                _reap(proc.pid)
        if not live or time.monotonic() > deadline:
            break
        fds = [fd for proc in live if (fd := _signal(proc)) is not None]
        killed.update((proc.pid, proc.start) for proc in live)
        if fds:
            _wait_gone(fds, deadline)
        else:  # no pidfds to wait on: look again shortly
            time.sleep(0.01)
    return len({pid for pid, _ in killed} - {tracked.leader})


def release(tracked: Tracked) -> int:
    """End what `tracked` left and stop tracking it; how many live processes were killed."""
    try:
        return end(tracked)
    finally:
        _tracked.pop(tracked.tag, None)


def forget(tracked: Tracked) -> None:
    """Stop tracking `tracked` without ending anything (its end was handled)."""
    _tracked.pop(tracked.tag, None)


def end_all() -> None:
    """End every tracked program and all it started, and those being started: decode is exiting."""
    global _ends
    _ends += 1
    for tracked in list(_tracked.values()):
        try:
            release(tracked)
        except Exception:  # exiting: the next one still matters
            logger.exception("could not end the processes of %d", tracked.leader)
        kill_group(tracked.leader)
