"""The Docker sandbox for real: a private dockerd, the offline image, `docker exec` (ADR-0064)."""

import asyncio
import contextlib
import http.server
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from decode.config.settings import Settings
from decode.entities.executor import ExecRequest
from decode.sandbox.backends import open_sandbox
from decode.sandbox.docker import DockerBackend
from decode.sandbox.executor import SandboxExecutor
from decode.sandbox.types import SandboxError, SandboxMode
from tests.conftest import wait_for
from tests.integration.sandbox.conftest import run

pytestmark = pytest.mark.integration

SECRET = "sk-host-secret-0123456789"
TOKEN = "ghp_sandbox_token_abcdef"


def docker(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["docker", *args], capture_output=True, text=True, timeout=60, check=False)


def settings(image: str, **values: object) -> Settings:
    return Settings(_env_file=None, sandbox_image=image, **values)  # type: ignore[call-arg]


def processes(container: str) -> str:
    listed = docker("exec", container, "ps", "-o", "args")
    assert listed.returncode == 0, listed.stderr
    return listed.stdout


def running(name: str) -> bool:
    return name in docker("ps", "--format", "{{.Names}}").stdout.split()


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "hello.txt").write_text("hi from the host\n")
    return root.resolve()


@pytest.fixture
async def sandbox(docker_host, workspace: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[SandboxExecutor]:
    monkeypatch.setenv("GEMINI_API_KEY", SECRET)
    monkeypatch.setenv("GITHUB_TOKEN", SECRET)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    executor = open_sandbox(SandboxMode.DOCKER, workspace, settings(docker_host.image))
    await executor.start()
    yield executor
    await executor.close()


def container(executor: SandboxExecutor) -> str:
    backend = executor.backend
    assert isinstance(backend, DockerBackend)
    return backend.name


async def test_bash_round_trip_and_the_workspace_is_shared(sandbox: SandboxExecutor, workspace: Path) -> None:
    result, out, _ = await run(sandbox, "cat hello.txt; pwd; echo made > made.txt; exit 3")
    assert (result.exit_code, out) == (3, f"hi from the host\n{workspace}\n")
    assert (workspace / "made.txt").read_text() == "made\n"
    await sandbox.write_atomic(workspace / "tool.txt", b"by a file tool\n")
    assert (await run(sandbox, "cat tool.txt"))[1] == "by a file tool\n"


async def test_a_write_outside_the_workspace_fails(sandbox: SandboxExecutor, tmp_path: Path) -> None:
    outside = tmp_path / "outside.txt"
    outside.write_text("host file\n")
    script = (
        f"cat {outside}; echo x > {outside}; touch /etc/x || echo etc-refused; touch /usr/bin/x || echo usr-refused"
    )
    _, out, _ = await run(sandbox, script)
    assert "host file" not in out  # not even visible: only the Workspace is mounted
    assert outside.read_text() == "host file\n"  # the write went to the container's private /tmp
    assert "etc-refused" in out
    assert "usr-refused" in out


async def test_protected_paths_cannot_be_written_inside(sandbox: SandboxExecutor, workspace: Path) -> None:
    config = (workspace / ".git" / "config").read_text()
    script = (
        "echo '[core] fsmonitor = touch /tmp/pwned' >> .git/config || echo config-refused; "
        "echo evil > .git/hooks/pre-commit || echo hook-refused; echo 'curl evil' > .bashrc; echo {} > .mcp.json; "
        "mv .git moved || echo rename-refused; rm -rf .git/hooks || echo rm-refused"
    )
    _, out, _ = await run(sandbox, script)
    assert "config-refused" in out
    assert "hook-refused" in out
    assert "rename-refused" in out
    assert "rm-refused" in out
    assert (workspace / ".git" / "HEAD").is_file()
    assert (workspace / ".git" / "config").read_text() == config
    assert not (workspace / ".git" / "hooks" / "pre-commit").exists()
    assert not (workspace / ".bashrc").exists()  # created, then removed after the command
    assert not (workspace / ".mcp.json").exists()


async def test_no_network_unless_the_command_may(sandbox: SandboxExecutor) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]
    probe = f"exec 3<>/dev/tcp/127.0.0.1/{port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && head -1 <&3"
    try:
        denied, out, _ = await run(sandbox, probe)
        assert denied.exit_code != 0
        assert "HTTP/1.0 200" not in out
        allowed, out, _ = await run(sandbox, probe, network=True)
        assert allowed.exit_code == 0
        assert "HTTP/1.0 200" in out
    finally:
        server.shutdown()
        server.server_close()


async def test_a_timeout_kills_the_process_inside_the_container(sandbox: SandboxExecutor) -> None:
    name = container(sandbox)
    script = "sleep 1001 & setsid sleep 1002 & (trap '' HUP TERM; exec sleep 1003) & sleep 1004"
    result, _, _ = await run(sandbox, script, seconds=1)
    assert result.timed_out
    assert result.exit_code is None
    assert wait_for(lambda: "sleep 100" not in processes(name)), processes(name)


async def test_an_abort_kills_the_process_inside_the_container(sandbox: SandboxExecutor) -> None:
    name = container(sandbox)
    task = asyncio.create_task(run(sandbox, "sleep 1005 & sleep 1006"))
    assert await asyncio.to_thread(wait_for, lambda: "sleep 1006" in processes(name))
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await asyncio.to_thread(wait_for, lambda: "sleep 100" not in processes(name)), processes(name)


async def test_what_a_command_leaves_running_is_stopped(sandbox: SandboxExecutor) -> None:
    result, out, _ = await run(sandbox, "(sleep 0.2; echo late) & sleep 1007 >/dev/null 2>&1 & echo now")
    assert (result.exit_code, out) == (0, "now\nlate\n")
    assert "sleep 1007" not in processes(container(sandbox))


async def test_no_host_secret_reaches_the_container(sandbox: SandboxExecutor) -> None:
    _, out, _ = await run(sandbox, "env")
    assert SECRET not in out
    assert "GEMINI_API_KEY" not in out
    assert "GITHUB_TOKEN" not in out
    assert "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" in out
    inspected = json.loads(docker("inspect", container(sandbox)).stdout)[0]
    assert not any(SECRET in entry for entry in inspected["Config"]["Env"])


async def test_the_git_token_alone_reaches_the_container_and_never_a_command_line(
    docker_host, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", SECRET)
    executor = open_sandbox(SandboxMode.DOCKER, workspace, settings(docker_host.image, sandbox_git_token=TOKEN))
    await executor.start()
    try:
        task = asyncio.create_task(run(executor, "echo token=$GITHUB_TOKEN; env; sleep 2"))
        await asyncio.sleep(0)  # let it start
        command_lines = await asyncio.to_thread(_command_lines_during, 1.0)
        _, out, _ = await task
    finally:
        await executor.close()
    assert f"token={TOKEN}" in out
    assert SECRET not in out
    assert not any(TOKEN in line for line in command_lines)


def _command_lines_during(seconds: float) -> list[str]:
    """Every process's command line on this machine, sampled for `seconds`."""
    seen: list[str] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                with contextlib.suppress(OSError):
                    seen.append(Path("/proc", entry, "cmdline").read_bytes().decode(errors="replace"))
        time.sleep(0.05)
    return seen


async def test_spawn_talks_through_pipes_and_kill_ends_it_inside(sandbox: SandboxExecutor) -> None:
    process = await sandbox.spawn(["sh", "-c", "while read -r line; do echo got:$line; done; sleep 1008"])
    process.stdin.write(b"ping\n")
    await process.stdin.drain()
    assert await asyncio.wait_for(process.stdout.readline(), 20) == b"got:ping\n"
    process.kill()
    await process.wait()
    name = container(sandbox)
    assert await asyncio.to_thread(wait_for, lambda: "got:" not in processes(name)), processes(name)


async def test_closing_the_session_removes_the_container(docker_host, workspace: Path) -> None:
    executor = open_sandbox(SandboxMode.DOCKER, workspace, settings(docker_host.image))
    await executor.start()
    name = container(executor)
    assert running(name)
    await executor.close()
    await executor.close()  # twice is fine
    assert name not in docker("ps", "-a", "--format", "{{.Names}}").stdout


def test_the_container_dies_with_decode(docker_host, workspace: Path, tmp_path: Path) -> None:
    script = tmp_path / "session.py"
    script.write_text(
        "import asyncio, sys\n"
        "from pathlib import Path\n"
        "from decode.config.settings import Settings\n"
        "from decode.sandbox.backends import open_sandbox\n"
        "from decode.sandbox.types import SandboxMode\n"
        "async def main():\n"
        f"    settings = Settings(_env_file=None, sandbox_image={docker_host.image!r})\n"
        f"    ex = open_sandbox(SandboxMode.DOCKER, Path({str(workspace)!r}), settings)\n"
        "    await ex.start()\n"
        "    print(ex.backend.name, flush=True)\n"
        "    await asyncio.sleep(1000)\n"
        "asyncio.run(main())\n"
    )
    session = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert session.stdout is not None
        name = session.stdout.readline().strip()
        assert name.startswith("decode-sandbox-")
        assert running(name)
    finally:
        session.kill()  # SIGKILL: no clean-up at all, as in a crash
        session.wait()
        if session.stdout is not None:
            session.stdout.close()
    assert wait_for(lambda: name not in docker("ps", "-a", "--format", "{{.Names}}").stdout, 30)


def test_preflight_without_an_engine_says_how_to_start_one(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCKER_HOST", f"unix://{workspace}/no-engine.sock")
    with pytest.raises(SandboxError, match=r"no Docker engine answers.*dockerd"):
        open_sandbox(SandboxMode.DOCKER, workspace, settings("decode-sandbox:test"))


def test_preflight_without_the_image_says_how_to_build_it(docker_host, workspace: Path) -> None:
    with pytest.raises(SandboxError, match=r"missing:nope is not in the engine.*make sandbox-image"):
        open_sandbox(SandboxMode.DOCKER, workspace, settings("missing:nope"))


def test_preflight_without_the_cli(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(workspace))
    with pytest.raises(SandboxError, match="`docker` CLI is not on PATH"):
        open_sandbox(SandboxMode.DOCKER, workspace, settings("decode-sandbox:test"))


def test_decode_run_in_the_docker_sandbox(docker_host, workspace: Path, tmp_path: Path, decode: str) -> None:
    script = tmp_path / "model.json"
    command = "cat hello.txt; echo made-inside > made.txt; grep -c NAME=.decode /etc/os-release; env"
    script.write_text(json.dumps([{"tool_calls": [{"name": "bash", "args": {"command": command}}]}, {"text": "ok"}]))
    env = {**os.environ, "DECODE_SANDBOX_IMAGE": docker_host.image, "GEMINI_API_KEY": SECRET}
    argv = [decode, "run", "--sandbox", "docker", "--permission-mode", "bypass", "--model", f"script:{script}", "go"]
    done = subprocess.run(argv, cwd=workspace, env=env, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr
    assert "hi from the host" in done.stdout + done.stderr
    assert (workspace / "made.txt").read_text() == "made-inside\n"
    assert SECRET not in done.stdout + done.stderr
    assert "decode-sandbox-" not in docker("ps", "-a", "--format", "{{.Names}}").stdout  # closed at the end


def test_decode_run_refuses_without_the_image(docker_host, workspace: Path, tmp_path: Path, decode: str) -> None:
    env = {**os.environ, "DECODE_SANDBOX_IMAGE": "absent:1"}
    argv = [decode, "run", "--sandbox", "docker", "--model", "test", "go"]
    done = subprocess.run(argv, cwd=workspace, env=env, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 2
    assert "the image absent:1 is not in the engine: build it offline with `make sandbox-image`" in done.stderr


def test_decode_run_hands_back_a_branch_from_the_docker_sandbox(docker_host, tmp_path: Path, decode: str) -> None:
    source, home = tmp_path / "source", tmp_path / "home"
    home.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main", str(source)], check=True)
    (source / "a.txt").write_text("one\n")
    identity = ["-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(["git", "-C", str(source), "add", "."], check=True)
    subprocess.run(["git", "-C", str(source), *identity, "commit", "-qm", "init"], check=True)
    script = tmp_path / "model.json"
    command = "echo two >> a.txt && echo new > new.txt && git status --short"
    script.write_text(json.dumps([{"tool_calls": [{"name": "bash", "args": {"command": command}}]}, {"text": "ok"}]))
    env = {**os.environ, "DECODE_SANDBOX_IMAGE": docker_host.image}
    argv = [decode, "run", "--repo", str(source), "--sandbox", "docker", "--permission-mode", "bypass"]
    argv += ["--model", f"script:{script}", "go"]
    done = subprocess.run(argv, cwd=home, env=env, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr
    branches = subprocess.run(
        ["git", "-C", str(source), "branch", "--list", "decode/*"], capture_output=True, text=True
    )
    branch = branches.stdout.strip()
    assert branch.startswith("decode/")
    show = ["git", "-C", str(source), "show", f"{branch}:a.txt"]
    assert subprocess.run(show, capture_output=True, text=True, check=True).stdout == "one\ntwo\n"
    assert (source / "a.txt").read_text() == "one\n"  # the source's checkout is untouched
    assert not (source / "new.txt").exists()


async def test_which_names_programs_that_run_inside(docker_host, workspace: Path, monkeypatch) -> None:
    # The host has `rg` (the venv's) on its PATH; the image does not: `which` must answer for inside,
    # or grep and glob would run a program that is not there and report "no matches".
    monkeypatch.setenv("PATH", f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    executor = open_sandbox(SandboxMode.DOCKER, workspace, settings(docker_host.image))
    await executor.start()
    try:
        for program in ("git", "rg"):
            found = await executor.which(program)
            if found is not None:
                result = await executor.run(
                    ExecRequest(
                        [found, "--version"], timeout=30, on_stdout=bytearray().extend, on_stderr=bytearray().extend
                    )
                )
                assert result.exit_code == 0, (program, found)
        assert await executor.which("git") is not None
    finally:
        await executor.close()


async def test_the_workspaces_env_files_are_empty_inside(docker_host, workspace: Path) -> None:
    (workspace / ".env").write_text(f"GEMINI_API_KEY={SECRET}\n")
    (workspace / ".env.example").write_text("GEMINI_API_KEY=\n")
    executor = open_sandbox(SandboxMode.DOCKER, workspace, settings(docker_host.image))
    await executor.start()
    try:
        _, out, _ = await run(executor, "cat .env; cat .env.example; echo x >> .env")
    finally:
        await executor.close()
    assert SECRET not in out
    assert "GEMINI_API_KEY=\n" in out  # the template is not a secret
    assert (workspace / ".env").read_text() == f"GEMINI_API_KEY={SECRET}\n"  # the write went to /dev/null


def test_the_lsp_tool_runs_ty_inside_the_container(docker_host, workspace: Path, tmp_path: Path, decode: str) -> None:
    (workspace / "bad.py").write_text('x: int = "a"\n')
    script = tmp_path / "model.json"
    call = {"name": "lsp", "args": {"operation": "diagnostics", "path": "bad.py"}}
    script.write_text(json.dumps([{"tool_calls": [call]}, {"text": "ok"}]))
    env = {**os.environ, "DECODE_SANDBOX_IMAGE": docker_host.image}
    argv = [decode, "run", "--sandbox", "docker", "--permission-mode", "bypass", "--model", f"script:{script}", "go"]
    done = subprocess.run(argv, cwd=workspace, env=env, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr
    (log,) = (workspace / ".decode" / "sessions").glob("*.jsonl")
    assert "bad.py:1:10" in log.read_text(), log.read_text()[-2000:]
