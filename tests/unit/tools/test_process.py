"""run_process: output streams, timeouts and aborts kill the whole process group."""

import asyncio
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from decode.tools.process import run_process


async def run(command: str, cwd: Path, timeout: float = 10) -> tuple[object, bytes, bytes]:  # noqa: ASYNC109
    out, err = bytearray(), bytearray()
    result = await run_process(
        ["bash", "-c", command],
        cwd=cwd,
        env=dict(os.environ),
        timeout=timeout,
        on_stdout=out.extend,
        on_stderr=err.extend,
    )
    return result, bytes(out), bytes(err)


async def test_exit_code_and_both_streams(tmp_path: Path) -> None:
    result, out, err = await run("echo out; echo err >&2; exit 3", tmp_path)
    assert (result.exit_code, out, err) == (3, b"out\n", b"err\n")
    assert not result.timed_out


async def test_stdin_is_closed_and_cwd_is_used(tmp_path: Path) -> None:
    result, out, _ = await run("cat; pwd", tmp_path)  # `cat` would wait forever on an open stdin
    assert result.exit_code == 0
    assert out == f"{tmp_path}\n".encode()


async def test_a_timeout_kills_the_grandchildren_too(tmp_path: Path, alive: Callable[[int], bool]) -> None:
    command = "bash -c 'sleep 300 & echo $! > grandchild.pid; wait' & sleep 300"
    result, _, _ = await run(command, tmp_path, timeout=1)
    assert result.timed_out
    assert result.exit_code is None
    grandchild = int((tmp_path / "grandchild.pid").read_text())
    for _ in range(50):  # SIGKILL is immediate, but the kernel reports it asynchronously
        if not alive(grandchild):
            break
        await asyncio.sleep(0.05)
    assert not alive(grandchild)


async def test_cancelling_kills_the_process_group(tmp_path: Path, alive: Callable[[int], bool]) -> None:
    task = asyncio.create_task(run("sleep 300 & echo $! > child.pid; wait", tmp_path, timeout=600))
    for _ in range(100):
        if (tmp_path / "child.pid").exists() and (tmp_path / "child.pid").read_text().strip():
            break
        await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    child = int((tmp_path / "child.pid").read_text())
    for _ in range(50):
        if not alive(child):
            break
        await asyncio.sleep(0.05)
    assert not alive(child)


async def test_background_processes_holding_the_output_are_stopped(
    tmp_path: Path, alive: Callable[[int], bool]
) -> None:
    result, out, _ = await run("sleep 300 & echo $! > bg.pid; echo started", tmp_path)
    assert result.exit_code == 0
    assert result.stopped_leftovers
    assert out == b"started\n"
    background = int((tmp_path / "bg.pid").read_text())
    for _ in range(50):
        if not alive(background):
            break
        await asyncio.sleep(0.05)
    assert not alive(background)


async def test_a_detached_background_process_may_keep_running(tmp_path: Path, alive: Callable[[int], bool]) -> None:
    result, _, _ = await run("sleep 300 > /dev/null 2>&1 & echo $! > server.pid", tmp_path)
    server = int((tmp_path / "server.pid").read_text())
    try:
        assert not result.stopped_leftovers
        assert alive(server)
    finally:
        os.kill(server, 9)
