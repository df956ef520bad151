"""run_process: output streams; timeouts, aborts and the end of a command kill everything it started.

Everything a command leaves (a new session, a double fork, `nohup`, `disown`, a process that
ignores SIGTERM, one that closed its output) is killed and reaped when the command ends (ADR-0043).
"""

import asyncio
import contextlib
import os
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from decode.entities.executor import ExecRequest
from decode.processes.run import run_process
from decode.processes.spawn import spawn_process
from decode.processes.tracking import become_subreaper, end_all
from tests.conftest import gone, has_pid, pids, until
from tests.unit.processes.conftest import process_alive


async def run(command: str, cwd: Path, timeout: float = 10) -> tuple[object, bytes, bytes]:  # noqa: ASYNC109
    out, err = bytearray(), bytearray()
    result = await run_process(
        ExecRequest(
            ["bash", "-c", command],
            cwd=cwd,
            env=dict(os.environ),
            timeout=timeout,
            on_stdout=out.extend,
            on_stderr=err.extend,
        )
    )
    return result, bytes(out), bytes(err)


async def test_exit_code_and_both_streams(tmp_path: Path) -> None:
    result, out, err = await run("echo out; echo err >&2; exit 3", tmp_path)
    assert (result.exit_code, out, err) == (3, b"out\n", b"err\n")
    assert not result.timed_out


@pytest.mark.parametrize("place", [{}, {"cwd": Path("/")}, {"env": {}}])
async def test_a_request_no_executor_placed_is_refused_before_anything_starts(place: dict) -> None:
    # Without a cwd or an env it would run in decode's own directory, or with decode's own keys.
    request = ExecRequest(["true"], timeout=10, on_stdout=print, on_stderr=print, **place)
    with pytest.raises(ValueError, match="cwd and env"):
        await run_process(request)


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
    assert await until(lambda: not alive(grandchild))  # SIGKILL is immediate, but the kernel reports it asynchronously


async def test_cancelling_kills_the_process_group(tmp_path: Path, alive: Callable[[int], bool]) -> None:
    task = asyncio.create_task(run("sleep 300 & echo $! > child.pid; wait", tmp_path, timeout=600))
    assert await until(lambda: has_pid(tmp_path / "child.pid"))
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    child = int((tmp_path / "child.pid").read_text())
    assert await until(lambda: not alive(child))


async def test_background_processes_holding_the_output_are_stopped(
    tmp_path: Path, alive: Callable[[int], bool]
) -> None:
    result, out, _ = await run("sleep 300 & echo $! > bg.pid; echo started", tmp_path)
    assert result.exit_code == 0
    assert result.stopped_leftovers
    assert out == b"started\n"
    background = int((tmp_path / "bg.pid").read_text())
    assert await until(lambda: not alive(background))


# Every way a command leaves something behind; each writes the pids it starts to *.pid files.
LEFT_BEHIND = {
    "a new session holding the output": "setsid sleep 1000 & echo $! > a.pid; echo started",
    "a detached server": "sleep 1000 > /dev/null 2>&1 < /dev/null & echo $! > a.pid; echo started",
    "a double fork": "( (sleep 1000 & echo $! > a.pid) & ); echo started",
    "a double fork into a new session": "( (setsid sleep 1000 > /dev/null 2>&1 & echo $! > a.pid) & ); echo started",
    "nohup": "nohup sleep 1000 > /dev/null 2>&1 & echo $! > a.pid; echo started",
    "disown": "sleep 1000 & echo $! > a.pid; disown; echo started",
    "ignoring SIGTERM and SIGHUP": "bash -c 'trap \"\" TERM HUP; sleep 1000' & echo $! > a.pid; echo started",
    "closing its output first": "exec 1>&- 2>&-; setsid sleep 1000 & echo $! > a.pid",
    "a new session with no environment, holding the output": "setsid env -i sleep 1000 & echo $! > a.pid; echo started",
    "many at once": "for i in $(seq 20); do (setsid sleep 1000 & echo $! >> a.pid) & done; wait; echo started",
    "every trace erased": "(setsid env -i sleep 1000 >/dev/null 2>&1 </dev/null & echo $! >a.pid) & wait; echo started",
}


@pytest.mark.parametrize("command", list(LEFT_BEHIND.values()), ids=list(LEFT_BEHIND))
async def test_nothing_a_command_leaves_behind_survives_it(tmp_path: Path, command: str) -> None:
    result, out, _ = await run(command, tmp_path, timeout=60)
    assert result.exit_code == 0
    assert not result.timed_out
    assert out in (b"started\n", b"")
    assert result.stopped_leftovers
    left = pids(tmp_path)
    assert left
    assert [pid for pid in left if not gone(pid)] == []  # killed, and reaped: no zombie either


async def test_a_timeout_ends_what_left_the_group_too(tmp_path: Path) -> None:
    command = (
        "setsid sleep 1000 & echo $! > a.pid; (setsid env -i sleep 1000 > /dev/null 2>&1 & echo $! > b.pid); sleep 1000"
    )
    result, _, _ = await run(command, tmp_path, timeout=1)
    assert result.timed_out
    assert [pid for pid in pids(tmp_path) if not gone(pid)] == []


async def test_an_abort_ends_what_left_the_group_too(tmp_path: Path) -> None:
    task = asyncio.create_task(run("setsid sleep 1000 & echo $! > a.pid; sleep 1000", tmp_path, timeout=600))
    assert await until(lambda: has_pid(tmp_path / "a.pid"))
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert [pid for pid in pids(tmp_path) if not gone(pid)] == []


def _started(marker: str) -> bool:
    """Has a child of this process exec'd a command line holding `marker`?"""
    for proc in Path("/proc").iterdir():
        try:
            stat, cmdline = (proc / "stat").read_text(), (proc / "cmdline").read_bytes()
        except (OSError, ValueError):
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid() and marker.encode() in cmdline:
            return True
    return False


async def test_a_command_cancelled_while_it_is_being_started_leaves_nothing(tmp_path: Path) -> None:
    # The program runs, and starts others, before asyncio has finished connecting it: a
    # cancellation then (Ctrl-C on a busy machine) must still end all of it, not just its leader.
    marker = "started-7f3a"
    command = f": {marker}; setsid sleep 1000 & echo $! > a.pid; sleep 1000 & echo $! > b.pid; wait"
    task = asyncio.create_task(run(command, tmp_path, timeout=600))
    deadline = time.monotonic() + 20
    while not _started(marker):  # the start has forked and exec'd bash...
        assert time.monotonic() < deadline
        await asyncio.sleep(0)
    while len(pids(tmp_path)) < 2:  # ...which runs on while the event loop is held here, before it connects
        assert time.monotonic() < deadline
        time.sleep(0.01)  # noqa: ASYNC251 (holding the event loop is the point)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert [pid for pid in pids(tmp_path) if not gone(pid)] == []


async def test_ending_everything_on_exit_stops_running_commands(tmp_path: Path) -> None:
    task = asyncio.create_task(run("setsid sleep 1000 & echo $! > a.pid; sleep 1000", tmp_path, timeout=600))
    assert await until(lambda: has_pid(tmp_path / "a.pid"))
    end_all()  # what the front ends do on SIGTERM or SIGHUP, and at exit
    result, _, _ = await task
    assert result.exit_code == -9  # bash itself was killed
    assert [pid for pid in pids(tmp_path) if not gone(pid)] == []


async def test_a_running_command_keeps_what_another_one_left(tmp_path: Path) -> None:
    """Two commands at once: ending one never touches the other's processes."""
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    long = asyncio.create_task(run("setsid sleep 1000 & echo $! > a.pid; sleep 1000", first, timeout=600))
    assert await until(lambda: has_pid(first / "a.pid"))
    result, _, _ = await run("setsid sleep 1000 & echo $! > a.pid; echo started", second)
    assert result.stopped_leftovers
    assert all(gone(pid) for pid in pids(second))
    assert all(process_alive(pid) for pid in pids(first))
    long.cancel()
    with pytest.raises(asyncio.CancelledError):
        await long
    assert all(gone(pid) for pid in pids(first))


async def test_output_written_in_the_grace_period_is_kept(tmp_path: Path) -> None:
    # The writer waits for bash to be gone (reaped), then prints at once, well within the grace period.
    result, out, _ = await run("(while kill -0 $$ 2>/dev/null; do sleep 0.01; done; echo late) & echo early", tmp_path)
    assert out == b"early\nlate\n"
    assert result.exit_code == 0


async def test_nothing_stays_tracked_after_a_command(tmp_path: Path) -> None:
    from decode.processes import tracking as process

    await run("setsid sleep 1000 & echo started", tmp_path)
    assert process._tracked == {}


async def test_decode_is_the_subreaper_of_what_it_starts(tmp_path: Path) -> None:
    await run("true", tmp_path)
    assert become_subreaper()
    await run("(setsid sleep 1000 & echo $! > a.pid) & wait", tmp_path)  # the orphan re-parents to us
    assert all(gone(pid) for pid in pids(tmp_path))


async def test_a_program_being_started_is_not_taken_for_an_orphan(monkeypatch: pytest.MonkeyPatch) -> None:
    # One command ends while another is being started (two subagents' commands at once): the new
    # program, in a session of its own and not tracked yet, is asyncio's to reap, not the first's.
    from decode.processes import tracking as module

    become_subreaper()
    first = await asyncio.create_subprocess_exec("true", start_new_session=True)
    tracked = module.track(first.pid, module.new_tag())
    await first.wait()
    monkeypatch.setattr(module, "_spawning", 1)  # what run_process holds between the fork and track()
    second = os.posix_spawnp("true", ["true"], dict(os.environ), setsid=True)  # noqa: ASYNC221 (returns at once)
    assert await until(lambda: _zombie(second)), "the second program did not exit"

    module.release(tracked)

    assert os.waitpid(second, os.WNOHANG)[0] == second  # still there for its own waiter  # noqa: ASYNC222


async def test_ending_everything_also_ends_a_command_being_started(tmp_path: Path) -> None:
    # SIGTERM while a command is being started: it already runs (and starts others) but is not
    # tracked yet. `end_all` must end it all the same, as soon as its start completes.
    from decode.processes import tracking as module

    marker = "starting-5c1e"
    command = f": {marker}; setsid sleep 1000 & echo $! > a.pid; sleep 1000 & wait"
    task = asyncio.create_task(run(command, tmp_path, timeout=30))
    deadline = time.monotonic() + 20
    while not _started(marker):  # forked and exec'd: the start is not over yet
        assert time.monotonic() < deadline
        await asyncio.sleep(0)
    while not (tmp_path / "a.pid").exists() or not (tmp_path / "a.pid").read_text().strip():
        assert time.monotonic() < deadline
        time.sleep(0.01)  # noqa: ASYNC251 (holding the event loop keeps the start from completing)
    assert module._tracked == {}  # the window: running, not tracked yet
    end_all()
    result, _, _ = await task
    assert (result.exit_code, result.timed_out) == (-9, False)  # ended then, not by the timeout
    assert [pid for pid in pids(tmp_path) if not gone(pid)] == []


async def test_ending_a_command_reads_only_the_processes_below_decode(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its cost follows what decode started, not the machine: no one else's process is read.
    from decode.processes import tracking as module

    read: list[int] = []
    original = module.read_stat
    monkeypatch.setattr(module, "read_stat", lambda pid: read.append(pid) or original(pid))
    result, _, _ = await run("(setsid sleep 1000 >/dev/null 2>&1 & echo $! > a.pid) & wait; echo started", tmp_path)
    assert result.stopped_leftovers  # the orphan was found below decode, and ended
    assert [pid for pid in pids(tmp_path) if not gone(pid)] == []
    assert pids(tmp_path)[0] in read
    assert 1 not in read
    assert os.getppid() not in read


@pytest.mark.parametrize("command", [LEFT_BEHIND["a double fork"], LEFT_BEHIND["every trace erased"]])
async def test_without_children_lists_every_process_is_looked_at(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    # A kernel built without /proc/PID/task/TID/children: the slow way, but nothing survives.
    from decode.processes import process_tree

    monkeypatch.setattr(process_tree, "has_children_lists", lambda: False)
    result, _, _ = await run(command, tmp_path)
    assert result.stopped_leftovers
    assert [pid for pid in pids(tmp_path) if not gone(pid)] == []


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except OSError:
        return False


async def test_ending_a_program_leaves_another_ones_exit_status_to_asyncio(tmp_path: Path) -> None:
    """Servers stopped together: the one ended last must not reap one ended just before it, which
    asyncio has not waited for yet (reaped here, asyncio reports 255: "exit status already read")."""
    first = await spawn_process(["sleep", "60"], cwd=tmp_path, env=dict(os.environ))
    second = await spawn_process(["sleep", "60"], cwd=tmp_path, env=dict(os.environ))
    second.kill()
    deadline = time.monotonic() + 60
    while not _zombie(second.pid):  # dead, not reaped: nothing was awaited, so asyncio has not looked
        assert time.monotonic() < deadline, "the killed program did not die"
        time.sleep(0.01)  # noqa: ASYNC251 (awaiting would let asyncio reap it first)
    first.kill()  # alone now, it takes what no one else claims, and the zombie born after it
    assert await second.wait() == -9  # SIGKILL, as asyncio read it
    assert await first.wait() == -9


async def test_a_command_over_before_it_is_tracked_still_loses_what_it_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # On a busy machine the whole command (fork, orphan, exit) can run while the event loop is away,
    # and asyncio reaps it before decode tracks it: its start can no longer be read from /proc. The
    # orphan it left, with every trace erased, was born before that moment and must still be its.
    from decode.processes import process_tree
    from decode.processes import run as module

    original = module.start_tracked

    async def over_first(*args: object, **options: object) -> asyncio.subprocess.Process:
        process = await original(*args, **options)  # type: ignore[arg-type]
        await process.wait()  # over and reaped: /proc/PID is gone before track() reads it
        orphan = process_tree.read_stat(pids(tmp_path)[0])
        assert orphan is not None
        deadline = time.monotonic() + 10
        while process_tree.ticks_now() <= orphan.start:  # a clock tick later than the orphan's birth
            assert time.monotonic() < deadline
            await asyncio.sleep(0.005)
        return process

    monkeypatch.setattr(module, "start_tracked", over_first)
    try:
        result, _, _ = await run(LEFT_BEHIND["every trace erased"], tmp_path)
        assert result.stopped_leftovers
        assert [pid for pid in pids(tmp_path) if not gone(pid, 1)] == []
    finally:
        for pid in pids(tmp_path):  # without the fix the orphan survives: it must not outlive the test
            with contextlib.suppress(OSError):
                os.kill(pid, 9)
