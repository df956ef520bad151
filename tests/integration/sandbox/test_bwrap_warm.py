"""The warm bubblewrap sandbox for real (ADR-0111): each of ADR-0104's five guarantees, kept.

Every command here runs through `--sandbox bwrap` as a tool runs it; each test first checks the
command really ran in the warm sandbox (not a cold one), then what a cold sandbox guarantees.
"""

import asyncio
import logging
import os
import shutil
import signal
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from decode.config.settings import Settings
from decode.entities.executor import ExecRequest
from decode.sandbox.backends import close_sandboxes, open_sandbox
from decode.sandbox.bwrap import BwrapBackend
from decode.sandbox.executor import SandboxExecutor
from decode.sandbox.protected import PROTECTED
from decode.sandbox.types import SandboxMode
from tests.conftest import gone
from tests.integration.sandbox.conftest import marked, run, warm

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (apt install bubblewrap)"),
]

WAIT = "for i in $(seq 600); do [ -e {path} ] && break; sleep 0.05; done"
"""A shell loop: wait (up to 30 s) until `path` exists."""


# -- (1) placeholders ---------------------------------------------------------------------------


async def test_absent_protected_paths_cannot_be_made_and_leave_nothing_on_the_host(
    sandbox: SandboxExecutor, project: Path
) -> None:
    names = [name for name in PROTECTED if "/" not in name and name != ".decode"]
    script = "; ".join(f"echo planted > {name} 2>/dev/null && echo WROTE {name}" for name in names)
    result, out, _ = await run(sandbox, script + "; true")
    warm(sandbox)
    assert result.exit_code == 0
    assert "WROTE" not in out
    # Between commands nothing of the placeholders is left in the Workspace: host git works.
    assert sorted(os.listdir(project)) == [".decode", ".git"]
    git = ["git", "status", "--short"]
    status = await asyncio.to_thread(subprocess.run, git, cwd=project, capture_output=True, text=True, check=False)
    assert status.returncode == 0, status.stderr


# -- (2) a fresh /tmp, pid and IPC namespace per command ----------------------------------------


async def test_each_command_gets_its_own_tmp_processes_and_ipc(sandbox: SandboxExecutor) -> None:
    first = "echo left > /tmp/left; echo left > /dev/shm/left; ipcmk -M 4096 >/dev/null; sleep 1000 & echo $$"
    result, out, err = await run(sandbox, first)
    assert result.exit_code == 0, err
    assert int(out) <= 3  # the shell is among the first processes of a pid namespace of its own
    result, out, err = await run(
        sandbox, "ls -A /tmp /dev/shm; ipcs -m | grep -c 0x || true; ls /proc | grep -c '^[0-9]'"
    )
    warm(sandbox)
    assert result.exit_code == 0, err
    assert "left" not in out
    lines = out.split()
    assert lines[-2] == "0"  # no shared memory segment of the first command
    assert int(lines[-1]) <= 4  # pid 1, bash, ls, grep: nothing of the first command's


async def test_a_command_holds_no_descriptor_of_its_pid_1(sandbox: SandboxExecutor) -> None:
    # Its report pipe held, a command could forge its exit code or fill decode's memory through it.
    probe = "for fd in 3 4 5 6 7 8 9; do { true >&$fd; } 2>/dev/null && echo open $fd; done; true"
    result, out, err = await run(sandbox, probe)
    warm(sandbox)
    assert result.exit_code == 0, err
    assert out == ""
    # decode's ends of the orders sockets reach no program it starts either.
    inheritable = [os.get_inheritable(ahead.fileno()) for _, ahead in warm(sandbox)._ahead]
    assert inheritable  # one made ahead is left (two are), whenever the next arrives
    assert not any(inheritable)


async def test_a_command_writing_to_every_descriptor_cannot_forge_its_exit_code(sandbox: SandboxExecutor) -> None:
    flood = "for fd in 3 4 5 6 7 8 9; do head -c 1000000 /dev/zero >&$fd 2>/dev/null; done; exit 7"
    result, _, _ = await run(sandbox, flood)
    warm(sandbox)
    assert result.exit_code == 7


KEYS = """
import ctypes, os, sys
add_key, request_key = {"aarch64": (217, 218)}.get(os.uname().machine, (248, 249))
libc = ctypes.CDLL(None, use_errno=True)
for ring in (-3, -4, -5):  # the session, user and user-session keyrings
    name = b"decode-test-%d" % -ring
    if sys.argv[1] == "add":
        assert libc.syscall(add_key, b"user", name, b"left", 4, ctypes.c_int(ring)) > 0, ctypes.get_errno()
    elif libc.syscall(request_key, b"user", name, None, 0) > 0:
        print("found", name.decode())
"""


async def test_a_key_one_command_adds_is_not_the_next_ones(sandbox: SandboxExecutor) -> None:
    write = f"cat > /tmp/keys.py <<'EOF'\n{KEYS}\nEOF\n{sys.executable} /tmp/keys.py"
    result, _, err = await run(sandbox, f"{write} add")
    assert result.exit_code == 0, err
    result, out, err = await run(sandbox, f"{write} find")
    warm(sandbox)
    assert result.exit_code == 0, err
    assert out == ""


async def test_two_commands_at_once_do_not_share_tmp(sandbox: SandboxExecutor, project: Path) -> None:
    one = f"touch /tmp/one; touch {project}/one-ready; {WAIT.format(path=project / 'two-done')}"
    two = f"{WAIT.format(path=project / 'one-ready')}; ls -A /tmp; touch {project}/two-done"
    await run(sandbox, "true")
    before = warm(sandbox)
    _, (result, out, err) = await asyncio.gather(run(sandbox, one), run(sandbox, two))
    assert warm(sandbox) is before  # the other's placeholders did not change the view
    assert result.exit_code == 0, err
    assert (project / "one-ready").exists()
    assert "one" not in out.split()


async def test_more_commands_at_once_than_made_ahead_all_run_warm(sandbox: SandboxExecutor, project: Path) -> None:
    # The runner makes a used child's successor only once its command ended, unless none is left
    # ready: a third command at once must not wait for the first two to end.
    await run(sandbox, "true")
    before = warm(sandbox)
    names = ["a", "b", "c"]
    wait_all = "; ".join(WAIT.format(path=project / f"{name}-started") for name in names)
    scripts = [f"touch {project}/{name}-started; {wait_all}; echo $$" for name in names]
    results = await asyncio.gather(*(run(sandbox, script) for script in scripts))
    assert [result.exit_code for result, _, _ in results] == [0, 0, 0], [err for *_, err in results]
    assert [out for _, out, _ in results] == ["2\n"] * 3  # each in a pid namespace of its own, after its pid 1
    assert warm(sandbox) is before
    assert not before.stale  # no command waited in vain for namespaces made ahead


# -- (3) the network per command -----------------------------------------------------------------


async def test_a_warm_command_has_a_loopback_of_its_own_and_network_commands_run_cold(
    sandbox: SandboxExecutor, project: Path
) -> None:
    python = sys.executable
    server = (
        f"{python} -c \"import socket,pathlib,os; s=socket.socket(); s.bind(('127.0.0.1', 0)); s.listen();"
        f" pathlib.Path('{project}/port').write_text(str(s.getsockname()[1]));"
        f" [os.path.exists('{project}/asked') or __import__('time').sleep(0.05) for _ in range(600)]\""
    )
    connect = (
        f'{WAIT.format(path=project / "port")}; {python} -c "import socket; s=socket.socket();'
        f" print(s.connect_ex(('127.0.0.1', int(open('{project}/port').read()))))\"; touch {project}/asked"
    )
    _, (result, out, err) = await asyncio.gather(run(sandbox, server), run(sandbox, connect))
    warm(sandbox)
    assert result.exit_code == 0, err
    assert out.strip() == "111"  # ECONNREFUSED: the other command's loopback is not this one's
    before = warm(sandbox)
    result, out, _ = await run(sandbox, "cat /proc/net/route | wc -l", network=True)
    assert result.exit_code == 0
    assert warm(sandbox) is before  # a command given the network ran cold, beside it


# -- (4) the view, recomputed for every command ---------------------------------------------------


async def test_a_repository_made_by_one_command_is_read_only_in_the_next(
    sandbox: SandboxExecutor, project: Path
) -> None:
    await run(sandbox, "true")
    first = warm(sandbox)
    result, _, err = await run(sandbox, "mkdir sub && git -C sub init -q")
    assert result.exit_code == 0, err
    result, out, _ = await run(sandbox, "echo '[core] fsmonitor = evil' >> sub/.git/config && echo WROTE")
    assert "WROTE" not in out
    assert "evil" not in (project / "sub" / ".git" / "config").read_text()
    assert warm(sandbox) is not first  # the view changed: a new warm sandbox


async def test_a_protected_file_replaced_on_the_host_is_seen_new_and_still_read_only(
    sandbox: SandboxExecutor, project: Path
) -> None:
    (project / ".mcp.json").write_text('{"old": 1}')
    _, out, _ = await run(sandbox, "cat .mcp.json")
    assert out == '{"old": 1}'
    first = warm(sandbox)
    (project / "new.json").write_text('{"new": 2}')
    os.replace(project / "new.json", project / ".mcp.json")  # a new inode at the same path
    _, out, _ = await run(sandbox, "cat .mcp.json; echo '{}' > .mcp.json 2>/dev/null && echo WROTE")
    assert out == '{"new": 2}'
    assert (project / ".mcp.json").read_text() == '{"new": 2}'
    assert warm(sandbox) is not first


async def test_a_host_mount_outside_the_view_going_away_keeps_commands_warm(
    sandbox: SandboxExecutor, tmp_path: Path
) -> None:
    # `--ro-bind / /` copies every host mount below `/`. The host removing one (a container's at each
    # `docker run --rm` of another test) detaches it here too; the view lost nothing, yet each
    # command then ran cold, where what it leaves is not reliably reported as stopped.
    point = tmp_path / "host-mount"
    point.mkdir()
    mounted = await asyncio.to_thread(subprocess.run, ["mount", "-t", "tmpfs", "none", str(point)], check=False)
    if mounted.returncode != 0:
        pytest.skip("mounting a tmpfs needs root here")
    try:
        await run(sandbox, "true")  # the warm sandbox starts with the host's mount in its table
        before = warm(sandbox)
    finally:
        await asyncio.to_thread(subprocess.run, ["umount", str(point)], check=True)
    point.rmdir()  # a mount point removed: gone in every namespace
    for _ in range(3):  # the children made ahead with it, and one made after
        result, out, _ = await run(sandbox, "nohup sleep 1000 >/dev/null 2>&1 & echo started")
        assert (result.exit_code, out) == (0, "started\n")
        assert result.stopped_leftovers
        assert warm(sandbox) is before
        assert not before.stale


async def test_an_env_file_made_after_the_sandbox_started_is_hidden(sandbox: SandboxExecutor, project: Path) -> None:
    await run(sandbox, "true")
    warm(sandbox)
    (project / ".env").write_text("SECRET=sk-made-later\n")
    _, out, _ = await run(sandbox, "cat .env; true")
    assert "sk-made-later" not in out


# -- (5) timeouts and leftovers go through the runner ---------------------------------------------


async def test_a_timeout_and_what_a_command_leaves_end_in_the_warm_sandbox(sandbox: SandboxExecutor) -> None:
    marker = f"DECODE_TEST_MARK={uuid.uuid4().hex}"
    result, _, _ = await run(sandbox, f"export {marker}; sleep 1000 & (setsid sleep 1000 &); sleep 1000", seconds=2)
    warm(sandbox)
    assert result.timed_out
    assert result.exit_code is None
    assert await asyncio.to_thread(lambda: [pid for pid in marked(marker) if not gone(pid)]) == []
    result, out, _ = await run(sandbox, f"export {marker}; nohup sleep 1000 >/dev/null 2>&1 & echo started")
    assert result.exit_code == 0
    assert out == "started\n"
    assert result.stopped_leftovers  # the tool says so, as for a command decode ran itself
    assert marked(marker) == []  # ended before the command's result came back
    result, _, _ = await run(sandbox, "true")
    assert not result.stopped_leftovers


async def test_a_command_whose_pid_1_dies_is_reported_cut_short_and_never_run_again(
    sandbox: SandboxExecutor, project: Path
) -> None:
    marker = f"DECODE_TEST_MARK={uuid.uuid4().hex}"
    await run(sandbox, "true")
    before = warm(sandbox)
    command = asyncio.ensure_future(run(sandbox, f"export {marker}; echo ran >> {project}/runs; exec sleep 1000"))
    for _ in range(600):  # until the command runs (30 s at most)
        if found := await asyncio.to_thread(marked, marker):
            break
        await asyncio.sleep(0.05)
    (sleeper,) = found
    pid_1 = parent(sleeper)
    os.kill(pid_1, signal.SIGKILL)
    result, _, err = await asyncio.wait_for(command, 60)
    assert (result.exit_code, result.timed_out) == (None, False)
    assert "the warm sandbox ended while this command ran" in err
    assert (project / "runs").read_text() == "ran\n"  # it had started: not run again, cold
    assert (await run(sandbox, "echo still"))[1] == "still\n"
    assert warm(sandbox) is before


async def test_a_command_can_neither_trace_nor_interrupt_its_pid_1(sandbox: SandboxExecutor) -> None:
    # Traced (the same user), pid 1 could be made to skip ending what the command left running;
    # interrupted (Python's SIGINT handler), it died before its report.
    probe = "cat /proc/1/environ >/dev/null 2>&1 && echo traceable; kill -INT 1; sleep 0.5; echo alive"
    result, out, err = await run(sandbox, probe)
    warm(sandbox)
    assert result.exit_code == 0, err
    assert out == "alive\n"


async def test_a_killed_runner_falls_back_to_cold_and_says_so(
    sandbox: SandboxExecutor, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="decode.sandbox")
    await run(sandbox, "true")
    backend = sandbox.backend
    assert isinstance(backend, BwrapBackend)
    os.kill(runner(warm(sandbox).pid), signal.SIGKILL)
    for _ in range(400):  # a command sent as it died may be reported ended; then they run cold
        await run(sandbox, "true")
        if backend.warm.off is not None:
            break
    result, out, _ = await run(sandbox, "echo still")
    assert result.exit_code == 0
    assert out == "still\n"
    assert "cold sandbox from now on" in caplog.text


async def test_a_wedged_runner_never_hangs_a_command(
    sandbox: SandboxExecutor, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="decode.sandbox")
    await run(sandbox, "true")
    os.kill(runner(warm(sandbox).pid), signal.SIGSTOP)  # it makes no namespaces for the next commands
    for _ in range(4):
        result, out, _ = await asyncio.wait_for(run(sandbox, "echo still"), 60)
        assert result.exit_code == 0
        assert out == "still\n"
    assert "made no namespaces for a command in time" in caplog.text


@pytest.mark.parametrize(
    ("argv", "env", "error"),
    [
        (["bash", "-c", "echo a\0b"], {}, r"^argument 2 of the command \('echo a\\x00b'\) holds a NUL byte"),
        (["true"], {"X": "a\0b"}, r"^the environment variable 'X' holds a NUL byte"),
    ],
)
async def test_a_nul_byte_is_refused_alike_warm_and_cold(
    sandbox: SandboxExecutor, argv: list[str], env: dict[str, str], error: str
) -> None:
    await run(sandbox, "true")
    before = warm(sandbox)
    for network in (False, True):  # the warm sandbox, then a cold one
        with pytest.raises(ValueError, match=error):
            await sandbox.run(ExecRequest(argv, timeout=30, on_stdout=print, on_stderr=print, env=env, network=network))
    result, out, _ = await run(sandbox, "echo still")
    assert (result.exit_code, out) == (0, "still\n")
    assert warm(sandbox) is before  # nothing was sent to it: it runs on


async def test_the_warm_sandbox_ends_with_the_session(project: Path) -> None:
    executor = open_sandbox(SandboxMode.BWRAP, project, Settings(_env_file=None))  # type: ignore[call-arg]
    await run(executor, "true")
    pid = warm(executor).pid
    await close_sandboxes()
    assert await asyncio.to_thread(gone, pid)


def runner(bwrap: int) -> int:
    """The host pid of the runner: the child of the sandbox's pid 1, bwrap's child."""
    (init,) = children(bwrap)
    (found,) = children(init)
    return found


def parent(pid: int) -> int:
    """The host pid of `pid`'s parent."""
    status = Path(f"/proc/{pid}/status").read_text().splitlines()
    return int(next(line for line in status if line.startswith("PPid:")).split()[1])


def children(pid: int) -> list[int]:
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
