"""Modal's `ContainerProcess` as the executor wants it: callbacks for `run`, a `Process` for `spawn`.

A `ContainerProcess` streams its output by async iteration and takes its input through a writer
whose `write` buffers and whose `drain` sends. `drive()` runs one to its end, streaming to the
callbacks `run` was given and killing inside on a timeout or an abort; `ModalProcess` feeds real
`asyncio.StreamReader`s from its streams, so an LSP or MCP client reads it like a local pipe.
Nothing here imports `modal`: tests drive these with a fake at the boundary (ADR-0065).
"""

import asyncio
import time
from collections.abc import Callable, Coroutine
from typing import Any

from decode.entities.executor import ExecRequest, ExecResult, OutputCallback

Kill = Callable[[], Coroutine[Any, Any, None]]
"""Ends a command inside the sandbox (the killer script, `decode/sandbox/inside.py`)."""


def _bytes(chunk: bytes | str) -> bytes:
    return chunk.encode() if isinstance(chunk, str) else chunk


async def drive(process: Any, request: ExecRequest, *, kill: Kill) -> ExecResult:
    """Run a started `ContainerProcess` to its end: feed the request's stdin, stream its output,
    `kill()` inside on a timeout or an abort."""
    started, stdin = time.monotonic(), request.stdin

    async def pump(stream: Any, sink: OutputCallback) -> None:
        async for chunk in stream:
            sink(_bytes(chunk))

    async def feed() -> None:
        if stdin:
            process.stdin.write(stdin)
        process.stdin.write_eof()
        await process.stdin.drain.aio()

    async def finish() -> int:
        await asyncio.gather(pump(process.stdout, request.on_stdout), pump(process.stderr, request.on_stderr), feed())
        return await process.wait.aio()

    try:
        code = await asyncio.wait_for(finish(), request.timeout)
    except TimeoutError:
        await asyncio.shield(kill())  # an abort while it kills must not stop the killer half-way
        return ExecResult(exit_code=None, duration_s=time.monotonic() - started, timed_out=True)
    except BaseException:
        await asyncio.shield(kill())  # an abort: nothing it started may run on inside
        raise
    return ExecResult(exit_code=code, duration_s=time.monotonic() - started)


class ModalStdin:
    """A `ContainerProcess`'s stdin as the little of `asyncio.StreamWriter` callers use."""

    def __init__(self, stream: Any) -> None:
        self._stream, self._closed = stream, False
        self._flushing: asyncio.Task[None] | None = None

    def write(self, data: bytes) -> None:
        self._stream.write(data)

    async def drain(self) -> None:
        await self._stream.drain.aio()

    def is_closing(self) -> bool:
        return self._closed

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            self._stream.write_eof()  # buffered, like what was written: a drain sends it
            self._flushing = asyncio.get_running_loop().create_task(self._stream.drain.aio())

    async def wait_closed(self) -> None:
        if self._flushing is not None:
            await self._flushing


class ModalProcess:
    """A program `spawn` started in the sandbox, as the executor's `Process`: real
    `asyncio.StreamReader`s fed from Modal's streams, `kill()` ending it inside."""

    def __init__(self, process: Any, kill: Kill) -> None:
        self._process, self._kill = process, kill
        self.stdin: Any = ModalStdin(process.stdin)
        self.stdout, self.stderr = asyncio.StreamReader(), asyncio.StreamReader()
        self._returncode: int | None = None
        self._pumps = [asyncio.create_task(self._pump(process.stdout, self.stdout))]
        self._pumps.append(asyncio.create_task(self._pump(process.stderr, self.stderr)))
        self._stopping: asyncio.Task[None] | None = None

    @staticmethod
    async def _pump(stream: Any, reader: asyncio.StreamReader) -> None:
        try:
            async for chunk in stream:
                reader.feed_data(_bytes(chunk))
        finally:
            reader.feed_eof()

    @property
    def returncode(self) -> int | None:
        return self._returncode

    async def wait(self) -> int:
        if self._returncode is None:
            self._returncode = await self._process.wait.aio()
        if self._stopping is not None:
            await self._stopping
        return self._returncode

    def kill(self) -> None:
        if self._stopping is None:
            self._stopping = asyncio.get_running_loop().create_task(self._kill())
