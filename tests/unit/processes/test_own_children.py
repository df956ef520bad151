"""decode's own helpers in a session of their own (host git, the warm sandbox) are no command's orphans.

A command that ends alone adopts the children of decode in a session of their own born after it
started (`ownership.owners`). Before `own_child`, a helper decode started beside it was one of them:
killed, and reaped from under asyncio (exit status 255) or `Popen` (exit status 0).
"""

import asyncio
import os
import signal
import subprocess
from pathlib import Path

from decode.entities.executor import ExecRequest
from decode.processes.own_children import own_child, sessions, starting
from decode.processes.run import run_process
from decode.processes.spawn import SpawnedProcess, spawn_process
from decode.processes.tracking import become_subreaper
from tests.conftest import gone, pids
from tests.unit.processes.conftest import process_alive


async def a_command(tmp_path: Path) -> SpawnedProcess:
    """A tracked program that runs until it is ended (as a command or an MCP server is)."""
    become_subreaper()
    return await spawn_process(["sleep", "1000"], cwd=tmp_path, env=dict(os.environ))


async def test_an_asyncio_helper_outlives_a_command_ended_beside_it(tmp_path: Path) -> None:
    command = await a_command(tmp_path)
    with own_child() as mark:
        helper = await asyncio.create_subprocess_exec("sleep", "1000", start_new_session=True)
        mark(helper.pid)
        command.kill()  # the command ends: what it left is ended
        await command.wait()
        assert process_alive(helper.pid)
        helper.kill()
        assert await asyncio.wait_for(helper.wait(), 20) == -signal.SIGKILL  # its status is still asyncio's


async def test_a_popen_helper_outlives_a_command_ended_beside_it(tmp_path: Path) -> None:
    command = await a_command(tmp_path)
    with own_child() as mark:
        helper = subprocess.Popen(["sleep", "1000"], start_new_session=True)  # noqa: ASYNC220 (as git_sync, in a thread)
        try:
            mark(helper.pid)
            command.kill()
            await command.wait()
            assert process_alive(helper.pid)
        finally:
            helper.kill()
            code = helper.wait(20)  # a killed process: at once
    assert code == -signal.SIGKILL  # Popen's to reap: reaped by decode, it would say 0


async def test_a_helper_being_started_is_not_taken_for_an_orphan(tmp_path: Path) -> None:
    # The fork window: the helper runs before its starter knows its pid (asyncio connects its pipes
    # over several turns of the loop; `Popen` may fork in a thread).
    command = await a_command(tmp_path)
    with own_child():
        assert starting()
        helper = os.posix_spawnp("sleep", ["sleep", "1000"], dict(os.environ), setsid=True)  # noqa: ASYNC221
        try:
            command.kill()
            await command.wait()
            assert process_alive(helper)
        finally:
            os.kill(helper, signal.SIGKILL)
            os.waitpid(helper, 0)  # noqa: ASYNC222 (a killed process: at once)
    assert not starting()


async def test_a_commands_own_orphan_is_still_ended_while_a_helper_runs(tmp_path: Path) -> None:
    become_subreaper()
    with own_child() as mark:
        helper = await asyncio.create_subprocess_exec("sleep", "1000", start_new_session=True)
        mark(helper.pid)
        assert sessions() == {helper.pid}
        out, err = bytearray(), bytearray()
        result = await run_process(
            ExecRequest(
                ["bash", "-c", "(setsid env -i sleep 1000 >/dev/null 2>&1 </dev/null & echo $! >a.pid) & wait"],
                cwd=tmp_path,
                env=dict(os.environ),
                timeout=30,
                on_stdout=out.extend,
                on_stderr=err.extend,
            )
        )
        assert result.stopped_leftovers
        assert all(gone(pid) for pid in pids(tmp_path))
        assert process_alive(helper.pid)
        helper.kill()
        await asyncio.wait_for(helper.wait(), 20)
    assert sessions() == frozenset()


def test_helpers_are_forgotten_when_their_block_ends() -> None:
    with own_child() as mark:
        assert (starting(), sessions()) == (True, frozenset())
        mark(4242)
        assert (starting(), sessions()) == (False, {4242})
    assert (starting(), sessions()) == (False, frozenset())
