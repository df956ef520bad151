"""A warm bubblewrap sandbox: one bwrap kept running, each command sent to the runner inside it.

A cold bwrap builds its namespaces for every command and most of its time goes to the kernel
tearing them down (ADR-0104). Here bwrap builds the view once and starts `warm_runner.py`, which
makes, for each command, what a cold bwrap would have made (ADR-0111): new mount, pid, IPC and
network namespaces, an empty `/tmp` and `/run`, the placeholders, no capability. decode sends
the order over a socket with the command's pipes; the command is not decode's child, so its
timeout is a message to the runner, and a runner that does not answer is killed with all it ran.

`WarmSandbox.run` returns None when the command did not start in it (the view went stale, the
runner failed): the caller runs it cold. A command that started is never run a second time.
"""

import asyncio
import contextlib
import json
import logging
import os
import socket
import struct
import time
from collections import deque
from collections.abc import Sequence
from pathlib import Path

from decode.entities.executor import ExecRequest, ExecResult, OutputCallback
from decode.processes.own_children import own_child
from decode.processes.process_tree import TAG_VARIABLE
from decode.processes.tracking import kill_group, new_tag, release, track
from decode.sandbox.types import SandboxError
from decode.sandbox.warm_pipes import Pipes, drain, feed, reading
from decode.sandbox.warm_runner import KERNEL_PROC_PATHS

logger = logging.getLogger(__name__)

RUNNER = Path(__file__).with_name("warm_runner.py")
RUNNER_CAPS = ("CAP_SYS_ADMIN", "CAP_NET_ADMIN", "CAP_SETPCAP", "CAP_SETFCAP")
"""What the runner keeps, in the sandbox's own user namespace only, to make each command's
namespaces (CAP_SETFCAP: to map the user's own id in each command's user namespace); the command
itself has none (`drop_capabilities`)."""
START_S = 10.0
ANSWER_S = 5.0
"""How long the runner may take to answer an order or end a command before it counts as wedged."""
LOOK_S = 0.05
"""How often decode looks whether pid 1 has started a command, until it has."""
REPORT_MAX = 4096
"""Bytes of a report kept (pid 1's is a few; its error message a line)."""
MAX_ORDER = 200_000
"""Bytes of one order (the command line and environment): a bigger one runs cold."""


def warm_argv(cold: Sequence[str], python: str) -> list[str]:
    """The warm sandbox's bwrap command line: `cold` (a cold sandbox's, for no command) with `/dev`
    read-only (each command gets its own `/dev/shm`, `/dev/pts`), a user namespace of its own for
    the runner's capabilities, and the runner as the program."""
    head = without_kernel_binds(cold[: len(cold) - 1 - list(reversed(cold)).index("--")])  # before the last "--"
    at = head.index("--unshare-pid")
    head[at:at] = ["--remount-ro", "/dev"]
    head += ["--unshare-user", *(arg for cap in RUNNER_CAPS for arg in ("--cap-add", cap))]
    return [*head, "--", python, "-I", "-S", "-c", RUNNER.read_text(encoding="utf-8"), *view_points(head)]


MOUNTS = {"--bind": 2, "--ro-bind": 2, "--ro-bind-try": 2, "--dev-bind": 2, "--tmpfs": 1, "--dev": 1, "--proc": 1}
"""bwrap's options that mount something, and which of their operands is the mount point."""


def view_points(args: Sequence[str]) -> list[str]:
    """Where bwrap mounts something for the view (`args`: its options): what the runner checks is
    still mounted before each command. Not the rest of its mount table: `--ro-bind / /` copies every
    host mount below `/`, and one the host removes (a container's, each `docker run --rm`) is gone
    from the sandbox too, though the view lost nothing; checked, it made each command run cold."""
    points = []
    for at, arg in enumerate(args[:-1]):
        if (operand := MOUNTS.get(arg)) is not None and at + operand < len(args):
            points.append(args[at + operand])
    return list(dict.fromkeys(points))


def without_kernel_binds(args: Sequence[str]) -> list[str]:
    """`args` without the read-only binds of /proc's kernel settings (`KERNEL_PROC_PATHS`). Bound
    from the host's /proc, they would forbid the runner a new /proc for each command (the kernel
    refuses one where a /proc it cannot see whole is mounted); each command's pid 1 binds them
    read-only over its own /proc instead, and only the runner sees the sandbox's."""
    kept, at = [], 0
    while at < len(args):
        if args[at] == "--ro-bind-try" and at + 2 < len(args) and args[at + 1] in KERNEL_PROC_PATHS:
            at += 3
            continue
        kept.append(args[at])
        at += 1
    return kept


class WarmSandbox:
    """One long-lived bwrap with the runner inside, for the view `key` names (see the module docstring)."""

    def __init__(self, key: tuple[object, ...], process: asyncio.subprocess.Process, control: socket.socket) -> None:
        self.key = key
        self.broken: str | None = None
        """Why it may no longer run commands (then the caller runs them cold), or None."""
        self.stale = False
        """Its view no longer matches the host (a bind lost): replace it."""
        self.running = 0
        self._process = process
        self._control = control
        self._tracked = track(process.pid, new_tag())
        self._ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._ahead: deque[tuple[int, socket.socket]] = deque()
        """Children the runner made ahead, their namespaces ready: (pid, the socket their pid 1 reads)."""
        self._arrived = asyncio.Event()
        self._complaints: asyncio.Task[None] | None = None
        asyncio.get_running_loop().add_reader(control.fileno(), self._on_message)

    @property
    def pid(self) -> int:
        """bwrap's process id (it ends everything in the sandbox when it dies)."""
        return self._process.pid

    @classmethod
    async def start(cls, argv: Sequence[str], key: tuple[object, ...]) -> "WarmSandbox":
        """Start bwrap with the runner (`warm_argv`); `SandboxError` when it does not come up."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            with own_child():  # in a session of its own: no command's orphan until `cls` tracks it
                process = await asyncio.create_subprocess_exec(
                    *argv,
                    stdin=theirs.fileno(),
                    stdout=asyncio.subprocess.DEVNULL,
                    stderr=asyncio.subprocess.PIPE,
                    env={TAG_VARIABLE: "warm-sandbox"},
                    start_new_session=True,
                )
        except OSError as exc:
            ours.close()
            raise SandboxError(f"the warm sandbox could not start: {exc}") from exc
        finally:
            theirs.close()
        ours.setblocking(False)
        warm = cls(key, process, ours)
        try:
            await asyncio.wait_for(asyncio.shield(warm._ready), START_S)
        except (TimeoutError, EOFError) as exc:
            await warm.close()
            why = await warm._stderr()
            raise SandboxError(f"the warm sandbox did not start: {why or exc or 'no answer'}") from None
        if process.stderr is not None:
            warm._complaints = asyncio.get_running_loop().create_task(_log_lines(process.stderr))
        return warm

    def _on_message(self) -> bool:
        """What the runner says: it is ready, or here is a child made ahead (with its socket).
        False when there was nothing to read (or the runner is gone)."""
        if self._control.fileno() < 0:
            return False
        try:
            message, fds, _, _ = socket.recv_fds(self._control, 1 << 16, 1)
            for fd in fds:  # recv_fds drops its flags (MSG_CMSG_CLOEXEC): no program decode starts gets one
                os.set_inheritable(fd, False)
        except BlockingIOError:
            return False
        except OSError:
            message, fds = b"", []
        if not message:  # the runner is gone
            asyncio.get_running_loop().remove_reader(self._control.fileno())
            self._break("the runner exited")
            if not self._ready.done():
                self._ready.set_exception(EOFError(self.broken))
            self._arrived.set()
            return False
        said = json.loads(message)
        if "ahead" in said and fds:
            self._ahead.append((int(said["ahead"]), socket.socket(fileno=fds[0])))
            self._arrived.set()
        elif "ready" in said and not self._ready.done():
            self._ready.set_result(None)
        return True

    def _catch_up(self) -> None:
        """Read what the runner said and the event loop has not handed over yet: a child it made
        while decode was busy elsewhere counts as ready, so this command does not have the next
        one made (a fork beside it, taking the CPU from its start)."""
        while self._on_message():
            pass

    async def _take(self) -> tuple[int, socket.socket] | None:
        """A child made ahead (waiting for the runner to make one if need be); None if none comes."""
        deadline = time.monotonic() + ANSWER_S
        while not self._ahead and self.broken is None:
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), max(0.0, deadline - time.monotonic()))
            if not self._ahead and time.monotonic() >= deadline:
                # Slow (a loaded machine) or wedged: this command runs cold, and the next in a new
                # warm sandbox; this one ends once its commands have.
                logger.warning("warm sandbox: the runner made no namespaces for a command in time; it runs cold")
                self.stale = True
                return None
        return self._ahead.popleft() if self._ahead and self.broken is None else None

    async def run(self, request: ExecRequest, placeholders: Sequence[Path]) -> ExecResult | None:
        """Run the request's program in its own namespaces in this sandbox; None when it did not start here."""
        (cwd, env), argv = request.place(), list(request.argv)
        order = {"argv": argv, "cwd": str(cwd), "env": dict(env), "placeholders": list(map(str, placeholders))}
        data = json.dumps(order).encode()
        self._catch_up()
        if self.broken or self.stale or len(data) > MAX_ORDER or (child := await self._take()) is None:
            return None
        started, (pid, orders) = time.monotonic(), child
        pipes = Pipes(request.stdin is not None)
        try:
            socket.send_fds(orders, [data], pipes.theirs())  # straight to its pid 1: no hop through the runner
        except OSError as exc:  # it died before its order: it did not start
            pipes.close_ours()
            await self.fail(f"a command's namespaces were gone before it started: {exc}")
            return None
        finally:
            orders.close()
            pipes.close_theirs()
        # The runner makes the next child once this command's result is handed back (forking now
        # would take the CPU from the command starting), unless none is left for another command.
        if not (later := bool(self._ahead)):
            self._tell({"used": pid})
        self.running += 1
        try:
            return await self._follow(pid, pipes, request, started)
        finally:
            self.running -= 1
            if later:
                asyncio.get_running_loop().call_soon(self._tell, {"used": pid})

    async def _follow(self, pid: int, pipes: Pipes, request: ExecRequest, started: float) -> ExecResult | None:
        """Read the command's output and its report until pid 1 has reported its exit code (its last
        write: its own exit, the teardown of its namespaces, is not waited for) or has ended."""
        report = bytearray()
        ended: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def on_report(chunk: bytes) -> None:
            report.extend(chunk[: REPORT_MAX - len(report)])  # pid 1 says a few bytes; no more is kept
            if report[:1] == b"C" and len(report) >= 5 and not ended.done():  # its exit code, its last word
                ended.set_result(None)

        said = reading(pipes.report, on_report)
        said.add_done_callback(lambda _: ended.done() or ended.set_result(None))
        output = asyncio.gather(
            reading(pipes.out, request.on_stdout),
            reading(pipes.err, request.on_stderr),
            feed(pipes.stdin, request.stdin),
        )
        timed_out = False
        try:
            if not await self._answered(pipes, ended):  # its pid 1 says nothing: slow or wedged, it is ended
                logger.warning("warm sandbox: a command's pid 1 did not answer in time; ending it")
                self.stale = True
                await self._end(pid, ended)
            try:
                await asyncio.wait_for(asyncio.shield(ended), max(0.0, started + request.timeout - time.monotonic()))
            except TimeoutError:
                timed_out = True
                logger.info("command timed out after %.0fs in the warm sandbox; ending its namespace", request.timeout)
                await self._end(pid, ended)
            if not pipes.begun() and not report and not timed_out:  # its pid 1 died before a word
                await self.fail("a command's namespaces ended before it started")
            elif pipes.begun() and len(report) < 5 and not timed_out:  # no exit code: nothing may live on
                self._tell({"kill": pid})
            if not await drain(output):
                logger.warning("something outside the command's namespace holds its output; no longer reading it")
        except BaseException:  # an abort: nothing the command started may outlive it
            self._tell({"kill": pid})
            output.cancel()
            raise
        finally:
            said.cancel()
            output.cancel()
            pipes.close_started()
        return self._result(bytes(report), pipes.begun(), timed_out, started, request.on_stderr)

    async def _answered(self, pipes: Pipes, ended: "asyncio.Future[None]") -> bool:
        """Has pid 1 started the command, or ended, within `ANSWER_S`? What it says on `started` is
        looked at every `LOOK_S`, never waited on (`decode/sandbox/warm_pipes.py`)."""
        deadline = time.monotonic() + ANSWER_S
        while not (ended.done() or pipes.begun()) and time.monotonic() < deadline:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(ended), LOOK_S)
        return ended.done() or pipes.begun()

    def _result(
        self, report: bytes, begun: bool, timed_out: bool, started: float, on_stderr: OutputCallback
    ) -> ExecResult | None:
        """What pid 1 said: the command started (`begun`), then `C` and its exit code (and `L` if it
        left processes, ended), or no code: it ended early. Not started: `S` (a stale view), `E`."""
        duration = time.monotonic() - started
        if not begun:
            if report[:1] == b"S":
                self.stale = True
                logger.info("warm sandbox: a mount of its view is gone; the command runs cold, the next in a new one")
            elif report[:1] == b"E":
                logger.warning("warm sandbox: %s; the command runs cold", report[1:].decode(errors="replace"))
            return ExecResult(exit_code=None, duration_s=duration, timed_out=True) if timed_out else None
        if report[:1] == b"C" and len(report) >= 5 and not timed_out:
            code, left = struct.unpack("i", report[1:5])[0], report[5:6] == b"L"
            return ExecResult(exit_code=code, duration_s=duration, stopped_leftovers=left)
        if not timed_out:
            on_stderr(b"decode: the warm sandbox ended while this command ran\n")
            return ExecResult(exit_code=None, duration_s=duration)
        return ExecResult(exit_code=None, duration_s=duration, timed_out=True)

    async def _end(self, pid: int, ended: "asyncio.Future[None]") -> None:
        """Have the runner kill the command's namespace; a runner that does not is killed with it."""
        self._tell({"kill": pid})
        try:
            await asyncio.wait_for(asyncio.shield(ended), ANSWER_S)
        except TimeoutError:
            await self.fail("the runner did not end a command at its timeout")
            await ended

    def _tell(self, message: dict[str, object]) -> None:
        """Send the runner `message`; when that fails, the whole sandbox is killed."""
        if self._control.fileno() < 0:  # closed meanwhile: nothing to tell
            return
        try:
            self._control.send(json.dumps(message).encode())
        except OSError:
            self._break("the runner could not be told")
            kill_group(self._process.pid)  # no runner to ask: the whole sandbox goes

    def _break(self, why: str) -> None:
        """No command runs here again: say so once, with the first reason."""
        if self.broken is None:
            self.broken = why
            logger.warning("warm sandbox: %s; commands run in a cold sandbox from now on", why)

    async def fail(self, why: str) -> None:
        """Kill the sandbox and all it runs; no command runs in it again (the caller runs them cold)."""
        self._break(why)
        kill_group(self._process.pid)
        await self.close()

    async def close(self, *, at_once: bool = False) -> None:
        """End the runner and everything it started (closing its socket ends it; a kill if it
        lingers, or `at_once`: a sandbox replaced, with nothing of value left in it)."""
        if at_once:
            kill_group(self._process.pid)
        for _, orders in self._ahead:
            orders.close()
        self._ahead.clear()
        if self._control.fileno() >= 0:
            with contextlib.suppress(ValueError, OSError):
                asyncio.get_running_loop().remove_reader(self._control.fileno())
            self._control.close()
        try:
            await asyncio.wait_for(self._process.wait(), ANSWER_S)
        except TimeoutError:
            kill_group(self._process.pid)
            await self._process.wait()
        release(self._tracked)
        if self._complaints is not None:
            self._complaints.cancel()

    async def _stderr(self) -> str:
        if self._process.stderr is None or self._process.returncode is None:
            return ""
        return (await self._process.stderr.read()).decode(errors="replace").strip()


async def _log_lines(stream: asyncio.StreamReader) -> None:
    """The runner's own complaints (a child that could not make its namespaces), to decode's log."""
    while line := await stream.readline():
        logger.warning("warm sandbox: %s", line.decode(errors="replace").rstrip())
