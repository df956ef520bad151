"""Run one program in its own process group, stream its output, and leave nothing behind.

A command like `pytest -x & sleep 1000` starts children and grandchildren. Killing only the
`bash` we started would orphan them: they keep running, and keep our output pipes open. So every
program starts a new session (`setsid`), which makes it the leader of a fresh process group, and
on timeout or cancellation decode kills the whole group at once with SIGKILL.

After the program exits, anything it left in the background that still holds our pipes gets a
short grace period to finish writing, then the group is stopped too (a `server &` whose output
is redirected elsewhere keeps running; one writing into our pipe would hang the call forever).
"""

import asyncio
import contextlib
import logging
import os
import signal
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

from decode.entities.executor import ExecResult, OutputCallback

logger = logging.getLogger(__name__)

CHUNK = 64 * 1024
LEFTOVER_GRACE_S = 1.0


def kill_group(pid: int) -> None:
    """SIGKILL every process of the group led by `pid` (gone already is fine)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


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
    # Our own pipes, not asyncio's: asyncio's `wait()` would also wait for every holder of its
    # pipes to close them, so a background child would keep "the command" running forever.
    (out_read, out_write), (err_read, err_write) = os.pipe(), os.pipe()
    try:
        process = await asyncio.create_subprocess_exec(
            *argv,
            cwd=cwd,
            env=dict(env),
            stdin=asyncio.subprocess.DEVNULL if stdin is None else asyncio.subprocess.PIPE,
            stdout=out_write,
            stderr=err_write,
            start_new_session=True,  # its own session, so its own process group (pgid == pid)
        )
    except BaseException:
        os.close(out_read)
        os.close(err_read)
        raise
    finally:
        os.close(out_write)
        os.close(err_write)
    pumps = asyncio.gather(_pump(out_read, on_stdout), _pump(err_read, on_stderr), _feed(process, stdin))
    timed_out = stopped_leftovers = False
    try:
        try:
            await asyncio.wait_for(process.wait(), timeout)
        except TimeoutError:
            timed_out = True
            logger.info("command timed out after %.0fs; killing process group %d", timeout, process.pid)
            kill_group(process.pid)
            await process.wait()
        try:
            await asyncio.wait_for(asyncio.shield(pumps), LEFTOVER_GRACE_S)
        except TimeoutError:
            # Something in the background still holds our pipes open.
            stopped_leftovers = True
            kill_group(process.pid)
            await pumps
    except asyncio.CancelledError:
        # An abort: nothing the command started may outlive it.
        kill_group(process.pid)
        pumps.cancel()
        with contextlib.suppress(asyncio.CancelledError, ProcessLookupError):
            await process.wait()
        with contextlib.suppress(asyncio.CancelledError):
            await pumps  # collect the pumps' cancellation (asyncio logs one nobody retrieved)
        raise
    return ExecResult(
        exit_code=None if timed_out else process.returncode,
        duration_s=time.monotonic() - started,
        timed_out=timed_out,
        stopped_leftovers=stopped_leftovers,
    )
