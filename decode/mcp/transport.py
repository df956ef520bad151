"""A stdio MCP server started through the executor seam, so it runs where the agent's commands run.

    executor.spawn(argv) ──▶ Process ── stdout: one JSON-RPC message a line ──▶ the MCP session
                                      ◀─ stdin:  one JSON-RPC message a line ── the MCP session
                                      ── stderr ──▶ the server's log (`.decode/logs/mcp/NAME.log`)

With no sandbox the executor is the local one (a process on this machine, tracked and ended with
decode, ADR-0043); with `--sandbox bwrap|docker|modal` the same server starts inside the sandbox,
with the sandbox's environment. The MCP session only sees two in-memory streams of messages
(`SessionMessage`), as over fastmcp's own `StdioTransport`. Shutdown follows the MCP spec: close
stdin, give the server a moment to exit, then kill it (and what it started).

A server that writes a line that is not JSON-RPC before it is started (`ExecutorTransport.started`)
is not speaking MCP (a banner, a shell's greeting): the connection ends there, so `initialize` fails
at once instead of waiting out its timeout, and the line is kept for the report (`garbage`). Once
started, such a line is only logged: a stray print must not cost a working server.

An answer that is JSON-RPC in shape but not valid (a `result` that is not an object) becomes an
error answer to its request, so the call fails at once saying why, instead of never being answered.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import json
import logging
import os
import signal
from collections.abc import AsyncGenerator, Callable, Mapping, Sequence
from pathlib import Path
from typing import TextIO, Unpack

import anyio
import mcp_types
import pydantic
from anyio.streams.memory import MemoryObjectSendStream
from fastmcp.client.transports.base import ClientTransport, SessionKwargs, TransportOptions
from mcp import ClientSession
from mcp.client._transport import TransportStreams
from mcp.shared.message import SessionMessage

from decode.entities.executor import CommandExecutor, Process
from decode.mcp.health import MALFORMED, first_error

logger = logging.getLogger(__name__)

CHUNK = 64 * 1024
EXIT_GRACE_S = 1.0
"""How long a server may take to exit once its stdin is closed, before it is asked to (SIGTERM)."""
TERM_GRACE_S = 1.0
"""How long a server may take to exit after SIGTERM, before it is killed."""
FLUSH_S = 0.5
"""How long messages already accepted may take to reach the server when the connection closes."""
KILL_WAIT_S = 5.0
"""How long a killed server may take to be reaped (only one stuck in the kernel takes long)."""
MAX_LINE_BYTES = 64 * 1024 * 1024
"""The longest message decode holds in memory (a 10,000-tool list is a few MB): past it, without a
newline, the connection ends, as a crash does, so a broken or hostile server cannot exhaust memory."""
LOG_LIMIT_BYTES = 10 * 1024 * 1024
"""What one start of a server may write to its log from stderr; the rest is left out (the disk is the host's)."""
GarbageFn = Callable[[bytes], bool]
"""Told of a line that is not JSON-RPC; True ends the connection."""


def executor_transport(
    executor: CommandExecutor | None,
    argv: Sequence[str],
    *,
    home: Path,
    cwd: Path,
    env: Mapping[str, str],
    log: TextIO | None,
) -> ExecutorTransport:
    """The transport of a stdio server run as `argv` in `cwd` with `env`, started by `executor`.

    No executor (a test, `decode mcp`): this machine's. The local executor sees every folder. A
    sandbox is only sure to see its Workspace (Docker and Modal mount nothing else), so a server
    whose folder is elsewhere (a user's server runs in their home) runs at the Workspace root.
    """
    from decode.processes.local import LocalExecutor

    if executor is None:
        executor = LocalExecutor(home, env=env)
    elif not isinstance(executor, LocalExecutor) and not cwd.resolve().is_relative_to(executor.workspace):
        logger.debug("the MCP server's folder %s is outside the sandbox: it runs in %s", cwd, executor.workspace)
        cwd = executor.workspace
    return ExecutorTransport(executor, argv, cwd=cwd, env=env, log=log)


class ExecutorTransport(ClientTransport):
    """fastmcp's client transport for a stdio server whose process comes from `executor.spawn`.

    One process per connection: entering `connect_session` starts it, leaving ends it.
    """

    def __init__(
        self,
        executor: CommandExecutor,
        argv: Sequence[str],
        *,
        cwd: Path,
        env: Mapping[str, str] | None,
        log: TextIO | None = None,
    ) -> None:
        self.executor, self.argv, self.cwd, self.env, self.log = executor, list(argv), cwd, env, log
        self._process: Process | None = None
        self.started = False
        """Set by the owner once `initialize` was answered: from then on a stray line is only logged."""
        self.garbage: bytes | None = None
        """The line not JSON-RPC that ended the last connection while it was starting, if any."""
        self.stdin_grace_s = EXIT_GRACE_S
        """How long the process may take to exit once its stdin is closed (read when the connection ends)."""

    @contextlib.asynccontextmanager
    async def connect_session(
        self, *, transport_options: TransportOptions | None = None, **session_kwargs: Unpack[SessionKwargs]
    ) -> AsyncGenerator[ClientSession]:
        options = transport_options or TransportOptions()
        process = await self.executor.spawn(self.argv, cwd=self.cwd, env=self.env)
        self._process, self.started, self.garbage = process, False, None
        try:
            async with (
                process_streams(process, self.log, self._garbage, lambda: self.stdin_grace_s) as (read, write),
                options.session_class(read, write, **session_kwargs) as session,
            ):
                yield session
        finally:
            self._process = None

    async def close(self) -> None:
        """End the server if a connection that never finished opening left it running."""
        process, self._process = self._process, None
        if process is not None and process.returncode is None:
            process.kill()

    def _garbage(self, line: bytes) -> bool:
        if self.started:
            return False
        self.garbage = line
        return True

    def __repr__(self) -> str:
        return f"<ExecutorTransport {self.argv[:1]} via {type(self.executor).__name__}>"


@contextlib.asynccontextmanager
async def process_streams(
    process: Process,
    log: TextIO | None = None,
    on_garbage: GarbageFn | None = None,
    stdin_grace: Callable[[], float] = lambda: EXIT_GRACE_S,
) -> AsyncGenerator[TransportStreams]:
    """The MCP session's two streams over `process`'s pipes; the process is ended on the way out,
    given `stdin_grace()` seconds to exit once its stdin is closed.

    A line that is not JSON-RPC goes to `on_garbage`: when it answers True, the connection ends there."""
    to_session, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, from_session = anyio.create_memory_object_stream[SessionMessage](0)
    writer_done = anyio.Event()
    pipes_done = [anyio.Event(), anyio.Event()]  # stdout and stderr read to their end

    async def read_server() -> None:
        try:
            async with to_session:
                buffer = bytearray()
                with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, ConnectionError):
                    while chunk := await process.stdout.read(CHUNK):
                        buffer.extend(chunk)
                        if not await _deliver(_lines(buffer), to_session, on_garbage):
                            break  # the session sees the end: a starting server's `initialize` fails now
                        if len(buffer) > MAX_LINE_BYTES:
                            logger.warning("an MCP server sent a line over %d bytes: connection closed", MAX_LINE_BYTES)
                            break
            await _discard(process.stdout)  # a server blocked writing could never see its stdin close
        finally:
            pipes_done[0].set()

    async def read_stderr() -> None:
        try:
            await copy_stderr(process.stderr, log)
        finally:
            pipes_done[1].set()

    async def write_server() -> None:
        try:
            async with from_session:
                async for message in from_session:
                    text = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                    process.stdin.write(text.encode() + b"\n")
                    await process.stdin.drain()
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await to_session.aclose()  # the server stopped reading: the session must not wait for answers
        finally:
            writer_done.set()

    async with anyio.create_task_group() as group:
        group.start_soon(read_server)
        group.start_soon(write_server)
        group.start_soon(read_stderr)
        try:
            yield read_stream, write_stream
        finally:
            with anyio.CancelScope(shield=True):  # a cancelled caller must not leave the server running
                read_stream.close()
                write_stream.close()
                with anyio.move_on_after(FLUSH_S):
                    await writer_done.wait()
                await stop(process, stdin_grace())
                # Its pipes read to their end let asyncio close the process's transport now, while the
                # loop runs: left for the garbage collector, it prints "Event loop is closed" at exit.
                with anyio.move_on_after(FLUSH_S):
                    for done in pipes_done:
                        await done.wait()
            group.cancel_scope.cancel()  # a pipe still held by something the kill could not reach


async def stop(process: Process, stdin_grace_s: float = EXIT_GRACE_S) -> None:
    """The MCP shutdown sequence: close stdin, wait `stdin_grace_s`; SIGTERM, wait a moment; then
    kill the server and what it started. Every server is stopped at once (`McpServers.close`), so
    leaving takes at most the two moments, however many servers ignore their stdin closing."""
    with contextlib.suppress(OSError):
        process.stdin.close()
    if await _ended(process, stdin_grace_s):
        return
    if _terminate(process):
        logger.debug("MCP server still running %gs after its stdin closed: SIGTERM sent", stdin_grace_s)
        if await _ended(process, TERM_GRACE_S):
            return
    process.kill()
    if not await _ended(process, KILL_WAIT_S):
        logger.warning("an MCP server did not end %gs after it was killed", KILL_WAIT_S)


def _terminate(process: Process) -> bool:
    """SIGTERM the server's process group when it runs on this machine; False for a container's
    process (Docker, Modal), which can only be killed."""
    from decode.processes.spawn import SpawnedProcess

    if not isinstance(process, SpawnedProcess):
        return False
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGTERM)
    return True


async def _ended(process: Process, seconds: float) -> bool:
    """Did `process` end within `seconds`?"""
    try:
        await asyncio.wait_for(process.wait(), seconds)
    except TimeoutError:
        return False
    return True


async def copy_stderr(stderr: asyncio.StreamReader, log: TextIO | None) -> None:
    """Copy what the server writes to stderr into its log as it comes (decoded whole characters),
    up to `LOG_LIMIT_BYTES`; past that it is still read (a full pipe would stall the server), not kept."""
    decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
    left = LOG_LIMIT_BYTES
    with contextlib.suppress(ConnectionError, OSError, ValueError):  # ValueError: the log was closed
        while chunk := await stderr.read(CHUNK):
            if log is None or log.closed or left <= 0:
                continue
            log.write(decoder.decode(chunk[:left]))
            left -= len(chunk)
            if left <= 0:
                log.write(f"\n[decode: more than {LOG_LIMIT_BYTES:,} bytes of stderr; the rest is left out]\n")
            log.flush()


async def _deliver(
    lines: list[bytes], to_session: MemoryObjectSendStream[SessionMessage | Exception], on_garbage: GarbageFn | None
) -> bool:
    """Pass the server's lines to the session; False when one was not JSON-RPC and `on_garbage` ends it."""
    for line in lines:
        message = _parse(line)
        if isinstance(message, Exception) and on_garbage is not None and on_garbage(line):
            return False
        await to_session.send(message)
    return True


def _lines(buffer: bytearray) -> list[bytes]:
    """Take the complete lines out of `buffer` (what follows the last newline stays); blank ones dropped."""
    end = buffer.rfind(b"\n")
    if end < 0:
        return []
    lines = bytes(buffer[:end]).split(b"\n")
    del buffer[: end + 1]
    return [line for line in lines if line.strip()]


def _parse(line: bytes) -> SessionMessage | Exception:
    """One line from the server: a message, or the error the session reports for it."""
    try:
        return SessionMessage(mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    except ValueError as exc:
        if (answer := _malformed_answer(line)) is not None:
            return answer
        logger.debug("an MCP server wrote a line that is not JSON-RPC: %.200r", line)
        return exc


def _malformed_answer(line: bytes) -> SessionMessage | None:
    """An answer to a request (its `id`, a `result` or `error`) that is not valid: an error answer to
    that request saying why, so the caller fails now. None when the line answers no request."""
    try:
        raw = json.loads(line)
    except ValueError:
        return None
    if not isinstance(raw, dict) or "method" in raw or not ({"result", "error"} & raw.keys()):
        return None
    ident = raw.get("id")
    if isinstance(ident, bool) or not isinstance(ident, int | str):
        return None
    shape = mcp_types.JSONRPCResponse if "result" in raw else mcp_types.JSONRPCError
    try:
        shape.model_validate(raw, by_name=False)
        why = "not a JSON-RPC answer"
    except pydantic.ValidationError as exc:
        why = first_error(exc)
    error = mcp_types.ErrorData(code=mcp_types.INTERNAL_ERROR, message=f"{MALFORMED}: {why}")
    return SessionMessage(mcp_types.JSONRPCError(jsonrpc="2.0", id=ident, error=error))


async def _discard(stdout: asyncio.StreamReader) -> None:
    with contextlib.suppress(ConnectionError, OSError):
        while await stdout.read(CHUNK):
            pass
