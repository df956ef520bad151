"""Run one program in its own process group, stream its output, and leave nothing behind.

A command like `pytest -x & sleep 1000` starts children and grandchildren; `setsid sleep 1000 &`
or a double fork leaves the command's process group altogether. Killing only the `bash` we
started (or only its group) would orphan them: they keep running, and keep our output pipes
open. So decode tracks every program it starts and ends what that program left (ADR-0043):

- each program starts a new session (`setsid`): it leads a fresh process group, killed whole;
- decode is a *child subreaper* (Linux `PR_SET_CHILD_SUBREAPER`): an orphan re-parents to decode
  instead of to init, so whatever a command started stays below decode in the process tree,
  found by walking down from decode's own children (`process_tree.py`), never every process;
- each program carries a tag in its environment (`DECODE_PROCESS_TAG`). A process below decode
  belongs to a program when it is in that program's group or session, when its parent belongs
  to it, when it carries its tag, or when it holds one of its output pipes; and an orphan that
  re-parented to decode in a session of its own, born after the program started, belongs to it
  when it is the only program decode is tracking (decode's own helpers in sessions of their own,
  host git and the warm sandbox, say they are none: `own_children`);
- when the program ends (it exits, times out or is aborted), everything that belongs to it gets
  SIGKILL, again until nothing is left (a process may fork while it is killed), and is reaped;
- on decode's own exit (`end_all`, also what the front ends call on SIGTERM and SIGHUP) every
  tracked program is ended so.

After the program exits, anything it left in the background that still holds our pipes gets a
short grace period to finish writing; then it is ended with the rest. What escapes all of that
(a new session with an empty environment and no inherited descriptors, while other programs
run at the same time) is ended when the last of them ends, or when decode exits. A process that
leaves decode's tree altogether (a daemon started through systemd or docker) is the sandbox's
job. Elsewhere than Linux (no /proc, no subreaper), the process group is all there is.
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
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from decode.entities.executor import ExecResult, OutputCallback
from decode.tools import own_children, process_tree
from decode.tools.process_tree import PROC, TAG_VARIABLE, Proc, below_decode, carries_tag, holds_pipe, read_stat

logger = logging.getLogger(__name__)

CHUNK = 64 * 1024
LEFTOVER_GRACE_S = 1.0
"""How long background writers may keep our pipes after the program exits."""
DRAIN_S = 1.0
"""How long the pipes may stay open once everything that belongs to the program is dead (a
holder decode cannot reach, say a daemon the descriptor was passed to); then decode stops reading."""
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


# -- which program each process below decode belongs to ------------------------------------------


def _owners(table: Mapping[int, Proc], known: Sequence[Tracked], adopt: Tracked | None) -> dict[int, Tracked]:
    """The program of `known` each process below decode belongs to (see the module docstring);
    `adopt` takes the orphans no other rule places."""
    me, not_orphans = os.getpid(), {os.getsid(0), 0, *own_children.sessions()}  # decode's, none, its helpers'
    leaders = {tracked.leader: tracked for tracked in known}
    tags = {tracked.tag.encode(): tracked for tracked in known}
    pipes = {pipe: tracked for tracked in known for pipe in tracked.pipes}
    children: dict[int, list[Proc]] = {}
    for proc in table.values():
        children.setdefault(proc.ppid, []).append(proc)
    owners: dict[int, Tracked] = {}
    queue = deque(children.get(me, []))  # parents before their children
    while queue:
        proc = queue.popleft()
        owner = (
            leaders.get(proc.pgid)
            or leaders.get(proc.sid)
            or owners.get(proc.ppid)
            or carries_tag(proc.pid, tags)
            or holds_pipe(proc.pid, pipes)
        )
        # An orphan in a session of its own (not a helper's of decode), born while `adopt` ran: one
        # of its processes that erased its traces.
        orphan = owner is None and proc.ppid == me and proc.pid not in leaders and proc.sid not in not_orphans
        # A program another command (or a helper) is starting leads its own session too, and is not ours to reap.
        starting = (_spawning or own_children.starting()) and proc.sid == proc.pid
        if orphan and adopt is not None and proc.start >= adopt.start and not starting:
            owner = adopt
        if owner is not None:
            owners[proc.pid] = owner
        queue.extend(children.get(proc.pid, []))
    return owners


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
        owners = _owners(table, known, adopt)
        live = []
        for pid, owner in owners.items():
            proc = table[pid]
            if proc.state in ("Z", "X"):
                if proc.ppid == me and pid not in leaders:
                    with contextlib.suppress(ChildProcessError):
                        os.waitpid(pid, os.WNOHANG)
            elif owner is tracked:
                live.append(proc)
        for proc in table.values():  # what we killed and lost sight of (a zombie has no environment)
            if (proc.pid, proc.start) in killed and proc.state == "Z" and proc.ppid == me and proc.pid not in leaders:
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(proc.pid, os.WNOHANG)
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


@dataclass
class SignalStop:
    """Which signal stopped decode, once one has (see `end_all_on`)."""

    signum: int | None = None


def end_all_on(signals: Sequence[int], task: "asyncio.Task[object] | None") -> SignalStop:
    """What a front end installs: on any of `signals`, end every tracked program at once (before
    anything else can go wrong), then cancel `task` so the turn stops as an abort stops it."""
    loop, stop = asyncio.get_running_loop(), SignalStop()

    def on_signal(signum: int) -> None:
        end_all()
        if stop.signum is None and task is not None:  # a second signal must not cancel the clean-up
            stop.signum = signum
            task.cancel()

    for signum in signals:
        loop.add_signal_handler(signum, on_signal, signum)
    return stop


# -- running a program ------------------------------------------------------------------------


async def _pump(fd: int, sink: OutputCallback) -> None:
    """Read a pipe until every writer has closed it, handing each chunk to `sink`."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=CHUNK)
    pipe = os.fdopen(fd, "rb", buffering=0)  # the transport owns and closes it
    transport, _ = await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), pipe)
    try:
        while chunk := await reader.read(CHUNK):
            sink(chunk)
    finally:
        transport.close()


async def _feed(process: asyncio.subprocess.Process, data: bytes | None) -> None:
    """Write `data` to the program's stdin and close it (a program that stops reading is fine)."""
    if data is None or process.stdin is None:
        return
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        process.stdin.write(data)
        await process.stdin.drain()
    process.stdin.close()


async def _drain(pumps: "asyncio.Future[Any]", seconds: float) -> bool:
    """Wait up to `seconds` for the pumps; True when they finished."""
    try:
        await asyncio.wait_for(asyncio.shield(pumps), seconds)
    except TimeoutError:
        return False
    return True


async def _start(
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


async def run_process(
    argv: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout: float,  # noqa: ASYNC109 (the process group must die with it, not just this task)
    on_stdout: OutputCallback,
    on_stderr: OutputCallback,
    stdin: bytes | None = None,
) -> ExecResult:
    """Run `argv` to completion, `stdin` fed then closed; see the module docstring for the lifecycle."""
    started = time.monotonic()
    become_subreaper()
    tag = new_tag()
    # Our own pipes, not asyncio's: asyncio's `wait()` would also wait for every holder of its
    # pipes to close them, so a background child would keep "the command" running forever.
    (out_read, out_write), (err_read, err_write) = os.pipe(), os.pipe()
    global _spawning
    _spawning += 1
    since = process_tree.ticks_now()  # the command may be over and reaped before it is tracked (see `track`)
    try:
        process = await _start(
            argv,
            tag,
            since,
            (out_write, err_write),
            cwd=cwd,
            env={**env, TAG_VARIABLE: tag},
            stdin=asyncio.subprocess.DEVNULL if stdin is None else asyncio.subprocess.PIPE,
            stdout=out_write,
            stderr=err_write,
        )
    except BaseException:
        _spawning -= 1
        for fd in (out_read, err_read, out_write, err_write):
            os.close(fd)
        raise
    try:
        tracked = track(process.pid, tag, (out_write, err_write), since)
    finally:
        _spawning -= 1
        os.close(out_write)
        os.close(err_write)
    pumps = asyncio.gather(_pump(out_read, on_stdout), _pump(err_read, on_stderr), _feed(process, stdin))
    timed_out = stopped_leftovers = False
    try:
        try:
            await asyncio.wait_for(process.wait(), timeout)
        except TimeoutError:
            timed_out = True
            logger.info("command timed out after %.0fs; killing everything it started (%d)", timeout, process.pid)
            end(tracked)  # the tree is still whole: who belongs to the program is known by descent too
            kill_group(process.pid)
            await process.wait()
        # Background writers may finish what they print; then nothing the program left may stay.
        stopped_leftovers = not await _drain(pumps, LEFTOVER_GRACE_S)
        stopped_leftovers = release(tracked) > 0 or stopped_leftovers
        if not await _drain(pumps, DRAIN_S):
            logger.warning("something outside decode's reach holds the output of %d; no longer reading it", process.pid)
            pumps.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pumps
    except BaseException:
        # An abort (or a failing output callback): nothing the command started may outlive it.
        release(tracked)
        kill_group(process.pid)
        pumps.cancel()
        with contextlib.suppress(asyncio.CancelledError, ProcessLookupError):
            await process.wait()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await pumps  # collect the pumps' outcome (asyncio logs one nobody retrieved)
        raise
    finally:
        _tracked.pop(tag, None)
    return ExecResult(
        exit_code=None if timed_out else process.returncode,
        duration_s=time.monotonic() - started,
        timed_out=timed_out,
        stopped_leftovers=stopped_leftovers,
    )


# -- starting a long-lived program ------------------------------------------------------------


class SpawnedProcess:
    """A program `spawn_process` started, in its own process group, tracked until it ends."""

    def __init__(self, process: asyncio.subprocess.Process, tracked: Tracked) -> None:
        if process.stdin is None or process.stdout is None or process.stderr is None:
            raise ValueError("a spawned process needs pipes for stdin, stdout and stderr")
        self._process = process
        self._tracked: Tracked | None = tracked
        self.stdin, self.stdout, self.stderr = process.stdin, process.stdout, process.stderr

    @property
    def returncode(self) -> int | None:
        return self._process.returncode

    # [lesson 13]
    @property
    def pid(self) -> int:
        return self._process.pid

    # [/lesson 13]
    async def wait(self) -> int:
        code = await self._process.wait()
        self._release()  # it is over: so is whatever it left running
        return code

    def kill(self) -> None:
        kill_group(self._process.pid)
        self._release()  # and whatever it started that left its group

    def _release(self) -> None:
        if self._tracked is not None:
            release(self._tracked)
            self._tracked = None


async def spawn_process(argv: Sequence[str], *, cwd: Path, env: Mapping[str, str]) -> SpawnedProcess:
    """Start `argv` with pipes for stdin, stdout and stderr (a language server), tracked as `run_process` tracks."""
    pipe = asyncio.subprocess.PIPE
    become_subreaper()
    tag = new_tag()
    global _spawning
    _spawning += 1
    since = process_tree.ticks_now()
    try:
        process = await _start(
            argv, tag, since, cwd=cwd, env={**env, TAG_VARIABLE: tag}, stdin=pipe, stdout=pipe, stderr=pipe
        )
        return SpawnedProcess(process, track(process.pid, tag, since=since))
    finally:
        _spawning -= 1
