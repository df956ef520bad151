"""The pipes between decode and one command in the warm sandbox (ADR-0111), and their reading.

decode makes them and sends the runner's ends with the order to the command's pid 1: the report
(pid 1's answer: the exit code), stdin, stdout, stderr, and `started`, on which pid 1 says the
command is starting. decode never waits on `started`: a wake-up there would take the CPU while
the command starts. It reads it when it needs to know: when pid 1 is slow to answer, and at the end.
"""

import asyncio
import contextlib
import os
from typing import Any

from decode.entities.executor import OutputCallback

DRAIN_S = 1.0
"""How long the output may take to end once the command has (something else may hold it)."""


class Pipes:
    """The pipes of one command: decode's ends, and the runner's (sent with the order, then closed)."""

    def __init__(self, with_stdin: bool) -> None:
        (self.out, self._out), (self.err, self._err), (self.report, self._report) = os.pipe(), os.pipe(), os.pipe()
        self.started, self._started = os.pipe()
        os.set_blocking(self.started, False)
        self._in, self.stdin = os.pipe() if with_stdin else (os.open(os.devnull, os.O_RDONLY), -1)
        self._begun = False

    def theirs(self) -> list[int]:
        return [self._report, self._started, self._in, self._out, self._err]  # the order pid 1 reads them in

    def begun(self) -> bool:
        """Has pid 1 said the command is starting (so it must never run a second time)?"""
        if not self._begun and self.started >= 0:
            with contextlib.suppress(OSError):
                self._begun = os.read(self.started, 1) == b"R"
        return self._begun

    def close_started(self) -> None:
        """Close decode's end of `started`, what it said kept (`begun`)."""
        if self.started >= 0:
            self.begun()
            os.close(self.started)
            self.started = -1

    def close_theirs(self) -> None:
        for fd in self.theirs():
            with contextlib.suppress(OSError):
                os.close(fd)

    def close_ours(self) -> None:
        for fd in (self.out, self.err, self.report, self.started, self.stdin):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)


def reading(fd: int, sink: OutputCallback) -> "asyncio.Future[None]":
    """Read a pipe to its end from now on, handing each chunk to `sink`; the pipe is closed at its
    end, or when the future is cancelled. Watched before this returns, with no task and no turn
    of the event loop: decode sleeps as soon as the order is sent, and pid 1 has the CPU."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()
    os.set_blocking(fd, False)

    def on_readable() -> None:
        try:
            chunk = os.read(fd, 1 << 16)
        except BlockingIOError:
            return
        except OSError:
            chunk = b""
        try:
            if chunk:
                sink(chunk)
            elif not done.done():
                done.set_result(None)
        except Exception as exc:  # the caller's sink failed: the reading ends with its error
            if not done.done():
                done.set_exception(exc)

    def stop(_: object) -> None:
        loop.remove_reader(fd)
        os.close(fd)

    loop.add_reader(fd, on_readable)
    done.add_done_callback(stop)
    return done


async def read(fd: int, sink: OutputCallback) -> None:
    """Read a pipe to its end, handing each chunk to `sink`; the pipe is closed after."""
    await reading(fd, sink)


async def feed(fd: int, data: bytes | None) -> None:
    """Write the command's stdin and close it (a command that stops reading is fine)."""
    if fd < 0:
        return

    def write() -> None:
        with contextlib.suppress(BrokenPipeError), os.fdopen(fd, "wb") as pipe:
            pipe.write(data or b"")

    await asyncio.to_thread(write)


async def drain(task: "asyncio.Future[Any]", seconds: float = DRAIN_S) -> bool:
    """Did `task` end within `seconds` (it is not cancelled if not)?"""
    try:
        await asyncio.wait_for(asyncio.shield(task), seconds)
    except TimeoutError:
        return False
    return True
