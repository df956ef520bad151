"""The processes below decode, read from /proc: found from decode's own children, never from a scan.

decode is a child subreaper (`process.py`, ADR-0043): whatever its programs start stays below
it, an orphan re-parented to decode itself. So everything a program may have left is in decode's
subtree, and the kernel lists each thread's children in `/proc/PID/task/TID/children`. Walking
down from decode costs what decode started, whether the machine runs 100 processes or 2,000
(ADR-0099). Only a kernel built without those lists (no `CONFIG_PROC_CHILDREN`) makes decode
read every process instead, as it must there.
"""

import contextlib
import functools
import os
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")
TAG_VARIABLE = "DECODE_PROCESS_TAG"
"""What each program decode starts carries in its environment: its tag."""
ROUNDS = 10
"""How often the walk looks again for orphans that re-parented to the root while it ran."""


@dataclass(frozen=True)
class Proc:
    pid: int
    ppid: int
    pgid: int
    sid: int
    state: str
    start: int  # clock ticks after boot: (pid, start) names one process even after its pid is reused


def read_stat(pid: int) -> Proc | None:
    try:
        raw = (PROC / str(pid) / "stat").read_bytes()
    except OSError:
        return None
    fields = raw[raw.rfind(b")") + 2 :].split()  # the command name may hold spaces and parentheses
    return Proc(pid, int(fields[1]), int(fields[2]), int(fields[3]), fields[0].decode(), int(fields[19]))


def ticks_now() -> int:
    """Now, in /proc's unit for start times (clock ticks after boot)."""
    try:
        return int(time.clock_gettime(time.CLOCK_BOOTTIME) * os.sysconf("SC_CLK_TCK"))
    except (AttributeError, OSError, ValueError):
        return 0


@functools.cache
def has_children_lists() -> bool:
    """Does this kernel list a thread's children (`/proc/thread-self/children`)?"""
    return (PROC / "thread-self" / "children").exists()


def children(pid: int) -> list[int]:
    """The children of `pid`, whichever of its threads started them (none once it is gone)."""
    found: list[int] = []
    tasks = PROC / str(pid) / "task"
    with contextlib.suppress(OSError):
        for tid in os.listdir(tasks):
            with contextlib.suppress(OSError):  # a thread that ended: its children moved to another
                found.extend(int(child) for child in (tasks / tid / "children").read_bytes().split())
    return found


def descendants(root: int) -> list[int] | None:
    """Every process below `root`, parents before their children; None without children lists.

    A process that dies while the walk runs hands its children to the subreaper (`root`), whose
    list may have been read already: so the walk reads `root`'s list again until it holds no one
    new (a few rounds at most: a command forking orphans without end is ended round by round).
    """
    if not has_children_lists():
        return None
    seen: set[int] = set()
    order: list[int] = []
    fresh = children(root)
    for _ in range(ROUNDS):
        queue = deque(fresh)
        while queue:
            pid = queue.popleft()
            if pid not in seen:
                seen.add(pid)
                order.append(pid)
                queue.extend(children(pid))
        if not (fresh := [pid for pid in children(root) if pid not in seen]):
            break
    return order


def below_decode() -> dict[int, Proc]:
    """The processes below decode, by pid; every process where the kernel cannot say which."""
    pids = descendants(os.getpid())
    if pids is None:
        with contextlib.suppress(OSError):
            pids = [int(name) for name in os.listdir(PROC) if name.isdigit()]
    return {proc.pid: proc for pid in pids or () if (proc := read_stat(pid)) is not None}


def carries_tag[Owner](pid: int, tags: Mapping[bytes, Owner]) -> Owner | None:
    """Whose tag (`TAG_VARIABLE`) `pid` carries in its environment, if one of `tags`."""
    try:
        environment = (PROC / str(pid) / "environ").read_bytes()
    except OSError:
        return None
    prefix = TAG_VARIABLE.encode() + b"="
    for entry in environment.split(b"\0"):
        if entry.startswith(prefix):
            return tags.get(entry[len(prefix) :])
    return None


def holds_pipe[Owner](pid: int, pipes: Mapping[str, Owner]) -> Owner | None:
    """Whose pipe (`pipe:[INODE]`, as /proc/PID/fd links name them) `pid` holds open, if one of `pipes`."""
    with contextlib.suppress(OSError):
        for fd in os.listdir(PROC / str(pid) / "fd"):
            with contextlib.suppress(OSError):
                if (owner := pipes.get(os.readlink(PROC / str(pid) / "fd" / fd))) is not None:
                    return owner
    return None
