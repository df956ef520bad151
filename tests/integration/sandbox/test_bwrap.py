"""The bubblewrap sandbox for real (ADR-0063): what a command inside can and cannot reach.

Every test runs real `bwrap` (CI installs bubblewrap); without it they skip, saying so.
"""

import asyncio
import http.server
import json
import os
import shutil
import subprocess
import sys
import threading
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from decode.config.settings import Settings
from decode.sandbox.backends import close_sandboxes, open_sandbox
from decode.sandbox.executor import SandboxExecutor
from decode.sandbox.types import SandboxError, SandboxMode
from tests.conftest import gone, own_settings, wait_for
from tests.integration.sandbox.conftest import marked, run

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (apt install bubblewrap)"),
]

DECODE = Path(sys.executable).parent / "decode"
SECRET = "sk-host-secret-0123456789"
TOKEN = "ghp_sandbox_token_abcdef"


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@pytest.fixture
async def sandbox(project: Path) -> AsyncIterator[SandboxExecutor]:
    (project / "src").mkdir()
    (project / "src" / "app.py").write_text("print('hi')\n")
    await asyncio.to_thread(subprocess.run, ["git", "init", "-q", str(project)], check=True)
    executor = open_sandbox(SandboxMode.BWRAP, project, settings())
    await executor.start()
    yield executor
    await close_sandboxes()


def exists(path: str) -> bool:
    """Is there something at `path` on the host?"""
    return os.path.lexists(path)


# -- the file system ----------------------------------------------------------------------------


async def test_the_workspace_is_writable_and_nothing_outside_it(sandbox: SandboxExecutor, project: Path) -> None:
    outside = project.parent / "outside"
    outside.mkdir()
    result, _out, err = await run(
        sandbox,
        f"echo made > src/new.py; echo x > {outside}/f; echo x > ../escape; echo x > /etc/decode-escape; echo done",
    )
    assert result.exit_code == 0, err
    assert (project / "src" / "new.py").read_text() == "made\n"
    assert not (outside / "f").exists()
    assert not (project.parent / "escape").exists()
    assert not exists("/etc/decode-escape")
    assert "Read-only file system" in err


async def test_symlinks_out_of_the_workspace_lead_nowhere(sandbox: SandboxExecutor, project: Path) -> None:
    outside = project.parent / "outside"
    outside.mkdir()
    (project / "out").symlink_to(outside)
    (project / "etc").symlink_to("/etc")
    _, _, err = await run(sandbox, "echo x > out/f; echo x > etc/decode-escape; ln -s / root; echo x > root/zz")
    assert err.count("bash: line 1:") == 3, err  # each of the three writes failed
    assert list(outside.iterdir()) == []
    assert not exists("/etc/decode-escape")
    assert not exists("/zz")
    with pytest.raises(OSError, match="symbolic link"):  # the file tools refuse to follow a link out
        await sandbox.write_atomic(project / "out" / "f", b"x")
    assert list(outside.iterdir()) == []


async def test_proc_1_root_is_the_sandbox_not_the_host(sandbox: SandboxExecutor) -> None:
    result, _, err = await run(sandbox, "echo x > /proc/1/root/etc/decode-escape; mount -o remount,rw / 2>&1")
    assert not exists("/etc/decode-escape")
    assert result.exit_code != 0, err


async def test_tmp_is_private_and_does_not_persist(sandbox: SandboxExecutor) -> None:
    name = f"decode-private-{uuid.uuid4().hex}"
    result, _, err = await run(sandbox, f"echo x > /tmp/{name} && cat /tmp/{name}")
    assert result.exit_code == 0, err
    assert not exists(f"/tmp/{name}")
    result, _, _ = await run(sandbox, f"test -e /tmp/{name}")
    assert result.exit_code == 1  # the next command gets a fresh /tmp


PROTECTED = [".git/hooks/pre-commit", ".git/config", ".decode/settings.json", ".mcp.json", ".bashrc", ".profile"]


@pytest.mark.parametrize("name", PROTECTED)
async def test_the_file_tools_refuse_protected_paths(sandbox: SandboxExecutor, project: Path, name: str) -> None:
    before = (project / name).read_bytes() if (project / name).exists() else None
    with pytest.raises(PermissionError, match="protected in a sandbox"):
        await sandbox.write_atomic(project / name, b"[core]\n\tfsmonitor = touch /tmp/pwned\n")
    assert ((project / name).read_bytes() if (project / name).exists() else None) == before


async def test_the_file_tools_refuse_a_protected_path_through_a_symlink(
    sandbox: SandboxExecutor, project: Path
) -> None:
    (project / "cfg").symlink_to(project / ".git" / "config")
    with pytest.raises(PermissionError):
        await sandbox.write_atomic(project / "cfg", b"evil")
    assert b"evil" not in (project / ".git" / "config").read_bytes()


async def test_commands_cannot_write_protected_paths(sandbox: SandboxExecutor, project: Path) -> None:
    config = (project / ".git" / "config").read_bytes()
    script = "; ".join(
        [
            "echo evil > .git/hooks/pre-commit",
            "git config core.fsmonitor 'touch /tmp/pwned'",
            "echo evil >> .git/config",
            "echo '{}' > .decode/settings.json",
            "echo '{}' > .mcp.json",
            "echo evil > .bashrc",
            "echo evil > e; mv e .profile; ln e .zshrc; cp e .envrc",  # rename, hard link, copy
            "mv .git g; rm -rf .git/hooks; mv .decode d",  # move the protection away
            "true",
        ]
    )
    result, _, err = await run(sandbox, script)
    assert result.exit_code == 0, err
    assert (project / ".git" / "config").read_bytes() == config
    assert not (project / ".git" / "hooks" / "pre-commit").exists()
    assert (project / ".git").is_dir()
    assert not (project / "g").exists()
    assert not (project / "d").exists()
    assert not (project / ".decode" / "settings.json").exists()
    for name in (".mcp.json", ".bashrc", ".profile", ".zshrc", ".envrc"):
        assert not (project / name).exists(), name  # not created, and no placeholder left behind


async def test_without_a_repository_none_can_be_made(project: Path) -> None:
    executor = open_sandbox(SandboxMode.BWRAP, project, settings())
    try:
        await run(executor, "git init -q . ; mkdir -p .git/hooks; echo x > .git/config")
        assert not (project / ".git").exists()  # a repository of its own would bring its own hooks
    finally:
        await close_sandboxes()


async def test_the_launch_directorys_git_is_read_only_inside(sandbox: SandboxExecutor, project: Path) -> None:
    result, out, err = await run(sandbox, "git status --short; git log --oneline -1; git add -A")
    assert result.exit_code != 0
    assert "Read-only file system" in err  # commands read the history; the user commits
    assert "src/" in out  # and git status still works


async def test_in_a_clone_git_works_inside_and_ignores_the_placeholders(tmp_path: Path) -> None:
    workspace = tmp_path / "home" / ".decode" / "workspaces" / "s1"
    (workspace / "src").mkdir(parents=True)
    (workspace / "src" / "app.py").write_text("print('hi')\n")
    await asyncio.to_thread(subprocess.run, ["git", "init", "-q", str(workspace)], check=True)
    executor = open_sandbox(SandboxMode.BWRAP, workspace, settings())
    try:
        await executor.start()
        script = "git add -A && git -c user.name=a -c user.email=a@example.com commit -qm work && git status --short"
        result, out, err = await run(executor, script)
        assert result.exit_code == 0, err
        assert out == ""  # committed, and the /dev/null placeholders are not "untracked files"
        result, _, err = await run(executor, "echo x >> .git/config; ls .git/hooks > /dev/null && touch .git/hooks/x")
        assert result.exit_code != 0  # its config and hooks stay read-only
    finally:
        await close_sandboxes()
    argv = ["git", "-C", str(workspace), "log", "--stat", "--format=%s"]
    log = await asyncio.to_thread(subprocess.run, argv, capture_output=True, text=True)
    assert log.stdout.startswith("work")
    assert "src/app.py" in log.stdout
    assert ".bashrc" not in log.stdout


async def test_env_files_are_hidden_inside(sandbox: SandboxExecutor, project: Path) -> None:
    (project / ".env").write_text(f"GEMINI_API_KEY={SECRET}\n")
    (project / ".env.example").write_text("GEMINI_API_KEY=\n")
    _result, out, _ = await run(sandbox, "cat .env; cat .env.example")
    assert SECRET not in out
    assert "GEMINI_API_KEY=\n" in out  # the template stays readable
    assert (project / ".env").read_text() == f"GEMINI_API_KEY={SECRET}\n"  # and the host's file is intact


# -- the environment ----------------------------------------------------------------------------


async def test_no_host_secret_reaches_a_command(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", SECRET)
    monkeypatch.setenv("GITHUB_TOKEN", SECRET)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", SECRET)
    monkeypatch.setenv("DECODE_PASS_ENV", "GITHUB_TOKEN,AWS_*")  # does not apply to a sandbox
    monkeypatch.setenv("MY_PROJECT_SETTING", "visible-outside")
    executor = open_sandbox(SandboxMode.BWRAP, project, settings())
    try:
        result, out, err = await run(executor, "env; cat /proc/1/cmdline /proc/1/environ | tr '\\0' '\\n'")
    finally:
        await close_sandboxes()
    assert result.exit_code == 0, err
    assert SECRET not in out
    assert "GITHUB_TOKEN" not in out
    assert "MY_PROJECT_SETTING" not in out
    assert "HOME=/tmp\n" in out
    assert "PATH=" in out


async def test_the_sandbox_git_token_alone_passes_as_github_token(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", SECRET)
    executor = open_sandbox(SandboxMode.BWRAP, project, settings(SANDBOX_GIT_TOKEN=TOKEN))
    try:
        result, out, err = await run(executor, "env; echo ---; tr '\\0' ' ' < /proc/1/cmdline")
    finally:
        await close_sandboxes()
    assert result.exit_code == 0, err
    variables, _, cmdline = out.partition("---")
    assert f"GITHUB_TOKEN={TOKEN}\n" in variables
    assert SECRET not in out
    assert TOKEN not in cmdline  # in the environment, never on a command line (`ps` shows those)
    names = {line.split("=", 1)[0] for line in variables.splitlines() if "=" in line}
    allowed = {"PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TERM", "TZ", "COLORTERM", "NO_COLOR", "PWD"}
    allowed |= {"SHLVL", "_", "PAGER", "GIT_PAGER", "GIT_TERMINAL_PROMPT", "GITHUB_TOKEN", "DECODE_PROCESS_TAG"}
    allowed |= {"GIT_DISCOVERY_ACROSS_FILESYSTEM", "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0"}
    assert {name for name in names if not name.startswith("LC_")} <= allowed


# -- the network --------------------------------------------------------------------------------


@pytest.fixture
def http_server() -> Iterator[str]:
    """An HTTP server on the host's 127.0.0.1; its URL."""

    class Hello(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"hello from the host")

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Hello)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


FETCH = "{python} -c \"import urllib.request; print(urllib.request.urlopen('{url}', timeout=5).read().decode())\""


async def test_no_network_unless_the_command_is_given_it(sandbox: SandboxExecutor, http_server: str) -> None:
    fetch = FETCH.format(python=sys.executable, url=http_server)
    result, out, err = await run(sandbox, fetch)
    assert result.exit_code != 0
    assert "hello from the host" not in out
    assert "Connection refused" in err or "Network is unreachable" in err, err
    result, out, err = await run(sandbox, fetch, network=True)
    assert result.exit_code == 0, err
    assert out == "hello from the host\n"


# -- processes ----------------------------------------------------------------------------------


async def test_a_runaway_command_and_its_children_die_at_its_timeout(sandbox: SandboxExecutor) -> None:
    marker = f"DECODE_TEST_MARK={uuid.uuid4().hex}"
    script = f"export {marker}; sleep 1000 & (setsid sleep 1000 &); sleep 1000"
    task = asyncio.create_task(run(sandbox, script, seconds=5))
    assert await asyncio.to_thread(wait_for, lambda: len(marked(marker)) >= 3)  # the three sleeps
    pids = marked(marker)
    result, _, _ = await task
    assert result.timed_out
    assert await asyncio.to_thread(lambda: [pid for pid in pids if not gone(pid)]) == []


async def test_what_a_command_leaves_running_is_stopped_when_it_ends(sandbox: SandboxExecutor) -> None:
    marker = f"DECODE_TEST_MARK={uuid.uuid4().hex}"
    result, _, _ = await run(sandbox, f"export {marker}; nohup sleep 1000 >/dev/null 2>&1 & echo started")
    assert result.exit_code == 0
    assert await asyncio.to_thread(wait_for, lambda: marked(marker) == [])


async def test_a_spawned_server_and_its_children_die_with_the_session(project: Path) -> None:
    executor = open_sandbox(SandboxMode.BWRAP, project, settings())
    marker = uuid.uuid4().hex
    process = await executor.spawn(["bash", "-c", f"export DECODE_TEST_MARK={marker}; sleep 1000 & sleep 1000"])
    assert await asyncio.to_thread(wait_for, lambda: len(marked(marker)) >= 2)  # the two sleeps
    pids = marked(marker)
    await close_sandboxes()
    assert process.returncode is not None
    assert await asyncio.to_thread(lambda: [pid for pid in pids if not gone(pid)]) == []


# -- preflight and the front ends ---------------------------------------------------------------


def test_without_bwrap_decode_refuses_and_never_runs_unsandboxed(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    with pytest.raises(SandboxError, match=r"`bwrap` is not on PATH.*apt install bubblewrap"):
        open_sandbox(SandboxMode.BWRAP, project, settings())
    script = tmp_path / "script.json"
    script.write_text(json.dumps([{"tool_calls": [{"name": "bash", "args": {"command": "touch ran"}}]}, {"text": "x"}]))
    argv = [str(DECODE), "run", "--sandbox", "bwrap", "--permission-mode", "bypass", "-m", f"script:{script}", "go"]
    done = subprocess.run(argv, cwd=project, capture_output=True, text=True, timeout=120, env=dict(os.environ))
    assert done.returncode == 2, done.stderr
    assert "decode: error: --sandbox bwrap: `bwrap` is not on PATH" in done.stderr
    assert not (project / "ran").exists()


def test_a_bwrap_that_cannot_create_a_sandbox_is_reported(project: Path, tmp_path: Path, monkeypatch) -> None:
    fake = tmp_path / "bin" / "bwrap"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{fake.parent}:{os.environ['PATH']}")
    with pytest.raises(SandboxError, match="cannot create a sandbox here: bwrap: No permissions"):
        open_sandbox(SandboxMode.BWRAP, project, settings())


def test_decode_run_in_bwrap_end_to_end(project: Path, tmp_path: Path, http_server: str) -> None:
    (project / ".decode").mkdir()
    fetch = FETCH.format(python=sys.executable, url=http_server)
    rules = {"allow": ["Bash(env)", "Bash(touch made.txt)", f"Bash({sys.executable} -c:*)"]}
    rules["allow"].append(f"Network({sys.executable} -c:*)")
    own_settings(project / ".decode" / "settings.local.json", json.dumps({"permissions": rules}))
    calls = [
        {"name": "bash", "args": {"command": "env"}},
        {"name": "bash", "args": {"command": "touch made.txt"}},
        {"name": "bash", "args": {"command": fetch}},  # no network asked: none there
        {"name": "bash", "args": {"command": fetch, "network": True}},  # asked, and a Network rule allows it
        {"name": "bash", "args": {"command": "touch made.txt", "network": True}},  # asked, no rule: refused
    ]
    script = tmp_path / "script.json"
    script.write_text(json.dumps([*({"tool_calls": [call]} for call in calls), {"text": "done"}]))
    env = {**os.environ, "GEMINI_API_KEY": SECRET, "GITHUB_TOKEN": SECRET}
    argv = [str(DECODE), "run", "--sandbox", "bwrap", "-m", f"script:{script}", "go"]
    done = subprocess.run(argv, cwd=project, capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "done\n"
    assert (project / "made.txt").exists()
    assert SECRET not in done.stderr
    assert "HOME=/tmp" in done.stderr
    assert done.stderr.count("hello from the host") == 1
    assert "network for touch made.txt: no rule allows it" in done.stderr


def test_the_repl_refuses_a_sandbox_it_cannot_start_before_it_draws(project: Path, tmp_path: Path) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    env = {**os.environ, "PATH": str(empty)}
    done = subprocess.run([str(DECODE), "--sandbox", "bwrap"], cwd=project, capture_output=True, text=True, env=env)
    assert done.returncode == 2
    assert "decode: error: --sandbox bwrap: `bwrap` is not on PATH" in done.stderr


async def test_one_sandbox_per_session_however_often_the_loop_is_rebuilt(project: Path) -> None:
    chosen = settings()
    first = open_sandbox(SandboxMode.BWRAP, project, chosen)
    try:
        assert open_sandbox(SandboxMode.BWRAP, project, chosen) is first  # /resume, /model rebuild the loop
        assert open_sandbox(SandboxMode.BWRAP, project, settings()) is not first
    finally:
        await close_sandboxes()
    assert open_sandbox(SandboxMode.BWRAP, project, chosen) is not first  # closed: a new one
    await close_sandboxes()


def test_a_resumed_session_stays_in_its_sandbox(project: Path, tmp_path: Path) -> None:
    def script(name: str, command: str) -> Path:
        path = tmp_path / name
        path.write_text(json.dumps([{"tool_calls": [{"name": "bash", "args": {"command": command}}]}, {"text": "ok"}]))
        return path

    first = [str(DECODE), "run", "--sandbox", "bwrap", "--permission-mode", "bypass"]
    first += ["-m", f"script:{script('first.json', 'true')}", "start"]
    done = subprocess.run(first, cwd=project, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    # Resumed without --sandbox: the command still runs inside (its HOME is the sandbox's).
    again = [str(DECODE), "run", "--resume", "--permission-mode", "bypass"]
    again += ["-m", f"script:{script('again.json', 'echo home=$HOME')}", "go on"]
    done = subprocess.run(again, cwd=project, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "home=/tmp\n" in done.stderr
    # An explicit --sandbox none is the user's own choice.
    done = subprocess.run(
        [*again[:3], "--sandbox", "none", *again[3:]], cwd=project, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert f"home={Path.home()}\n" in done.stderr
