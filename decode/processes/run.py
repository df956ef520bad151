"""Run one program to completion in its own process group, stream its output, and leave nothing behind.

The program is tracked from its start (`tracking.py`): when it exits, times out or is aborted,
everything it started is ended with it. After it exits, anything it left in the background that
still holds our pipes gets a short grace period to finish writing; then it is ended with the rest.
"""

import asyncio
import contextlib
import logging
import os
import time
from typing import Any

from decode.entities.executor import ExecRequest, ExecResult, OutputCallback
from decode.processes import process_tree
from decode.processes.process_tree import TAG_VARIABLE
from decode.processes.tracking import (
    become_subreaper,
    end,
    forget,
    kill_group,
    new_tag,
    release,
    spawning,
    start_tracked,
    track,
)

logger = logging.getLogger(__name__)

CHUNK = 64 * 1024
LEFTOVER_GRACE_S = 1.0
"""How long background writers may keep our pipes after the program exits."""
DRAIN_S = 1.0
"""How long the pipes may stay open once everything that belongs to the program is dead (a
holder decode cannot reach, say a daemon the descriptor was passed to); then decode stops reading."""


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


async def run_process(request: ExecRequest) -> ExecResult:
    """Run the request's program to completion, `stdin` fed then closed; its `cwd` and `env` are set
    (`ExecRequest.with_defaults`). See the module docstring for the lifecycle."""
    (cwd, env), timeout, stdin = request.place(), request.timeout, request.stdin
    started = time.monotonic()
    become_subreaper()
    tag = new_tag()
    # Our own pipes, not asyncio's: asyncio's `wait()` would also wait for every holder of its
    # pipes to close them, so a background child would keep "the command" running forever.
    (out_read, out_write), (err_read, err_write) = os.pipe(), os.pipe()
    since = process_tree.ticks_now()  # the command may be over and reaped before it is tracked (see `track`)
    with spawning():
        try:
            process = await start_tracked(
                request.argv,
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
            for fd in (out_read, err_read, out_write, err_write):
                os.close(fd)
            raise
        try:
            tracked = track(process.pid, tag, (out_write, err_write), since)
        finally:
            os.close(out_write)
            os.close(err_write)
    pumps = asyncio.gather(
        _pump(out_read, request.on_stdout), _pump(err_read, request.on_stderr), _feed(process, stdin)
    )
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
        forget(tracked)
    return ExecResult(
        exit_code=None if timed_out else process.returncode,
        duration_s=time.monotonic() - started,
        timed_out=timed_out,
        stopped_leftovers=stopped_leftovers,
    )
