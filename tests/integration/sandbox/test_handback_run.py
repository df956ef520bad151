"""`decode run --repo SRC --sandbox bwrap` end to end: a scripted model works in the Workspace clone
inside bubblewrap, and its work comes back to SRC as branch `decode/<session-id>`, SRC untouched.
No token is in any process of the sandbox (their environ and cmdline, read from inside), nor on a
host git command line."""

import json
import os
import re
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.conftest import git, source_repository
from tests.integration.conftest import bash

pytestmark = pytest.mark.integration

HOST_TOKEN = "ghp_hostTOKENnotForTheSandbox0000000000"
MODEL_KEY = "AIzaModelKEYnotForTheSandbox00000000000"
SANDBOX_TOKEN = "ghp_sandboxTOKENforTheSandboxOnly000000"
SPY = """#!/bin/sh
{ printf 'ARGV'; printf ' %s' "$@"; printf '\\n'; env; printf '\\n'; } >> "$(dirname "$0")/git.log"
exec /usr/bin/git "$@"
"""
# Every process the sandbox can see (its own PID namespace): each one's environment and command line.
DUMP = "for f in /proc/[0-9]*/environ /proc/[0-9]*/cmdline; do tr '\\0' '\\n' < $f; echo; done > seen.txt 2>/dev/null"


def _bwrap_problem() -> str | None:
    if shutil.which("bwrap") is None:
        return "bubblewrap is not installed (Debian: apt install bubblewrap)"
    done = subprocess.run(["bwrap", "--ro-bind", "/", "/", "true"], capture_output=True, text=True, check=False)
    return None if done.returncode == 0 else f"bwrap cannot run here: {done.stderr.strip()}"


needs_bwrap = pytest.mark.skipif(_bwrap_problem() is not None, reason=str(_bwrap_problem()))


@pytest.fixture
def source(tmp_path: Path) -> Path:
    repo = source_repository(tmp_path)
    (repo / "dirty.txt").write_text("the user's own, uncommitted\n", encoding="utf-8")
    return repo


def script(home: Path, *responses: dict[str, object]) -> str:
    path = home.parent / "script.json"
    path.write_text(json.dumps([*responses, {"text": "done"}]), encoding="utf-8")
    return f"script:{path}"


def write(path: str, content: str) -> dict[str, object]:
    return {"tool_calls": [{"name": "write", "args": {"path": path, "content": content}}]}


def session_id(stderr: str) -> str:
    found = re.search(r"session (\w+) saved", stderr)
    assert found, stderr
    return found.group(1)


@needs_bwrap
@pytest.mark.parametrize("sandbox_token", [False, True], ids=["no-token", "SANDBOX_GIT_TOKEN"])
def test_decode_run_repo_in_bwrap_hands_back_a_branch_and_no_token_reaches_the_sandbox(
    decode_cmd, source: Path, home: Path, tmp_path: Path, sandbox_token: bool
) -> None:
    spy = tmp_path / "spy"
    spy.mkdir()
    (spy / "git").write_text(SPY, encoding="utf-8")
    (spy / "git").chmod(0o755)
    model = script(
        home,
        write("hello.txt", "hello from the sandbox\n"),
        bash("git add hello.txt && git -c user.name=Model -c user.email=m@x commit -qm 'the model: hello'"),
        bash(f"echo more >> a.txt; {DUMP}"),
    )
    before = (git(source, "rev-parse", "HEAD"), (source / ".git" / "index").read_bytes(), git(source, "status", "-s"))
    env = {"GITHUB_TOKEN": HOST_TOKEN, "GEMINI_API_KEY": MODEL_KEY, "PATH": f"{spy}:{os.environ['PATH']}"}
    if sandbox_token:
        env["SANDBOX_GIT_TOKEN"] = SANDBOX_TOKEN
    args = ["run", "--model", model, "--repo", str(source), "--sandbox", "bwrap", "--permission-mode", "bypass"]

    done = decode_cmd(*args, "work", cwd=home, env=env)

    assert done.returncode == 0, done.stderr
    sid = session_id(done.stderr)
    branch = f"decode/{sid}"
    assert f"hand-back: shipped {branch} — 2 commits, 3 files" in done.stderr
    assert git(source, "show", f"{branch}:hello.txt") == "hello from the sandbox"
    assert git(source, "show", f"{branch}:a.txt") == "a\nmore"
    assert git(source, "log", "--format=%s", f"main..{branch}").splitlines() == [
        f"decode: the work of session {sid}",
        "the model: hello",
    ]
    after = (git(source, "rev-parse", "HEAD"), (source / ".git" / "index").read_bytes(), git(source, "status", "-s"))
    assert after == before
    assert git(source, "symbolic-ref", "HEAD") == "refs/heads/main"
    workspace = home / ".decode" / "workspaces" / sid
    assert (workspace / "hello.txt").is_file()
    assert (workspace / ".git").is_dir()
    # What every process inside saw, shipped back with the rest.
    seen = git(source, "show", f"{branch}:seen.txt")
    assert "bash" in seen  # it did read the processes
    assert HOST_TOKEN not in seen
    assert MODEL_KEY not in seen
    assert (f"GITHUB_TOKEN={SANDBOX_TOKEN}" in seen) is sandbox_token
    assert "SANDBOX_GIT_TOKEN" not in seen
    # Host git: no token on any command line, decode's own secrets not even in its environment.
    log = (spy / "git.log").read_text(encoding="utf-8")
    argv = [line for line in log.splitlines() if line.startswith("ARGV")]
    assert any(" push " in line for line in argv)
    assert any(" clone " in line for line in argv)
    assert not any(token in line for line in argv for token in (HOST_TOKEN, MODEL_KEY, SANDBOX_TOKEN))
    assert MODEL_KEY not in log
    assert SANDBOX_TOKEN not in log


@pytest.mark.parametrize("sandbox", ["none", pytest.param("bwrap", marks=needs_bwrap)])
def test_a_run_with_nothing_to_ship_does_nothing(decode_cmd, source: Path, home: Path, sandbox: str) -> None:
    model = script(home, bash("cat a.txt"))

    done = decode_cmd("run", "--model", model, "--repo", str(source), "--sandbox", sandbox, "look", cwd=home)

    assert done.returncode == 0, done.stderr
    assert "hand-back: nothing to ship" in done.stderr
    assert git(source, "branch", "--list", "decode/*") == ""


def test_a_run_whose_push_fails_exits_1_and_says_where_the_branch_is(decode_cmd, source: Path, home: Path) -> None:
    hook = source / ".git" / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\necho 'pushes are closed' >&2\nexit 1\n", encoding="utf-8")
    hook.chmod(0o755)
    model = script(home, write("new.txt", "work\n"))

    done = decode_cmd("run", "--model", model, "--repo", str(source), "--permission-mode", "bypass", "go", cwd=home)

    assert done.returncode == 1, done.stderr
    assert done.stdout.strip() == "done"  # the answer is still the answer
    sid = session_id(done.stderr)
    kept = home / ".decode" / "workspaces" / f"{sid}.git"
    assert f"the branch decode/{sid} is kept in {kept}" in done.stderr
    assert "pushes are closed" in done.stderr
    assert git(kept, "show", f"decode/{sid}:new.txt") == "work"
    assert git(source, "branch", "--list", "decode/*") == ""


def test_a_repo_that_is_not_there_is_refused_before_anything_runs(decode_cmd, home: Path) -> None:
    done = decode_cmd("run", "--model", "test", "--repo", "nowhere", "go", cwd=home)

    assert done.returncode == 2
    assert "--repo nowhere: no such directory" in done.stderr
    assert not (home / ".decode" / "workspaces").exists() or not any((home / ".decode" / "workspaces").iterdir())


def test_a_resumed_run_goes_on_in_its_workspace_and_continues_the_branch(decode_cmd, source: Path, home: Path) -> None:
    model = script(home, write("one.txt", "1\n"))
    first = decode_cmd("run", "--model", model, "--repo", str(source), "--permission-mode", "bypass", "1", cwd=home)
    assert first.returncode == 0, first.stderr
    sid = session_id(first.stderr)
    model = script(home, write("two.txt", "2\n"))
    args = ["run", "--model", model, "--resume", sid, "--permission-mode", "bypass", "two"]  # no --repo

    again = decode_cmd(*args, cwd=home)

    assert again.returncode == 0, again.stderr
    assert f"hand-back: shipped decode/{sid} — 2 commits, 2 files" in again.stderr
    assert git(source, "show", f"decode/{sid}:one.txt") == "1"
    assert git(source, "show", f"decode/{sid}:two.txt") == "2"
    assert not (home / "two.txt").exists()  # it worked in the clone, not in the launch directory


def test_a_sandbox_that_cannot_start_leaves_no_clone_behind(decode_cmd, source: Path, home: Path) -> None:
    env = {"DOCKER_HOST": f"unix://{home}/no-engine.sock"}
    args = ["run", "--model", "test", "--repo", str(source), "--sandbox", "docker", "go"]

    done = decode_cmd(*args, cwd=home, env=env)

    assert done.returncode == 2, done.stderr
    assert "docker" in done.stderr.lower()
    workspaces = home / ".decode" / "workspaces"
    assert not workspaces.exists() or list(workspaces.iterdir()) == []


def test_decode_run_repo_in_docker_hands_back_a_branch(decode_cmd, source: Path, home: Path, docker_host) -> None:
    model = script(
        home,
        write("hello.txt", "hello from the container\n"),
        bash("git add hello.txt && git -c user.name=Model -c user.email=m@x commit -qm 'the model, in docker'"),
        bash("echo more >> a.txt"),
    )
    args = ["run", "--model", model, "--repo", str(source), "--sandbox", "docker", "--permission-mode", "bypass"]

    done = decode_cmd(*args, "work", cwd=home, env={"DECODE_SANDBOX_IMAGE": docker_host.image})

    assert done.returncode == 0, done.stderr
    sid = session_id(done.stderr)
    assert f"hand-back: shipped decode/{sid} — 2 commits, 2 files" in done.stderr
    assert git(source, "show", f"decode/{sid}:hello.txt") == "hello from the container"
    assert git(source, "log", "--format=%s", f"main..decode/{sid}").splitlines()[1] == "the model, in docker"
    assert git(source, "status", "--porcelain") == "?? dirty.txt"  # the user's own file, as it was


def test_in_accept_edits_the_clone_is_the_workspace_and_the_harness_home_stays_protected(
    decode_cmd, source: Path, home: Path
) -> None:
    model = script(home, write("inside.txt", "mine\n"), write("../../settings.json", '{"defaultMode": "bypass"}'))
    args = ["run", "--model", model, "--repo", str(source), "--permission-mode", "accept-edits", "go"]

    done = decode_cmd(*args, cwd=home)

    assert done.returncode == 0, done.stderr
    sid = session_id(done.stderr)
    assert git(source, "show", f"decode/{sid}:inside.txt") == "mine"  # an edit in the clone: no question
    assert not (home / ".decode" / "settings.json").exists()  # the Harness Home's settings: refused
    assert "✗ write(../../settings.json)" in done.stderr


def _command_lines() -> dict[int, bytes]:
    lines = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                lines[int(entry.name)] = (entry / "cmdline").read_bytes()
            except OSError:
                continue  # it ended meanwhile
    return lines


@needs_bwrap
def test_no_token_is_on_any_command_line_of_this_machine_during_a_sandboxed_run(
    decode, source: Path, home: Path
) -> None:
    """`ps` shows every user's command lines: the sandbox's own (bwrap's argv) and the host git's too."""
    model = script(home, bash("sleep 1"), write("x.txt", "x\n"))
    argv = [decode, "run", "--model", model, "--repo", str(source), "--sandbox", "bwrap", "--permission-mode", "bypass"]
    env = {**os.environ, "GITHUB_TOKEN": HOST_TOKEN, "GEMINI_API_KEY": MODEL_KEY, "SANDBOX_GIT_TOKEN": SANDBOX_TOKEN}
    seen_bwrap = False
    leaked: list[bytes] = []
    with subprocess.Popen([*argv, "go"], cwd=home, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE) as run:
        while run.poll() is None:  # until the run ends: polled, every command line each time
            for line in _command_lines().values():
                seen_bwrap = seen_bwrap or line.startswith(b"bwrap\0") or b"/bwrap\0" in line
                if any(token.encode() in line for token in (HOST_TOKEN, MODEL_KEY, SANDBOX_TOKEN)):
                    leaked.append(line)
            time.sleep(0.005)  # polling the process table, not waiting for an event: the sandbox lives ≥ 1 s
        _, stderr = run.communicate()
    assert run.returncode == 0, stderr.decode()
    assert b"hand-back: shipped" in stderr
    assert seen_bwrap  # the scan did see the sandbox running
    assert leaked == []


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
def test_a_run_stopped_mid_turn_still_hands_its_work_back(decode, source: Path, home: Path, stop: int) -> None:
    """Whatever the exit code, a `--repo` Workspace is handed back (docs/headless.md): a run stopped
    while the model thinks keeps the file it already wrote, on its branch, and says so in its result."""
    model = script(home, write("new.txt", "work\n"), {"text": "thinking", "delay_s": 120})
    argv = [decode, "run", "--output-format", "stream-json", "--model", model, "--repo", str(source)]
    argv += ["--permission-mode", "bypass", "go"]
    # A process started in the background of a shell without job control ignores SIGINT, and its
    # children inherit that (CI's `make test` is one): Ctrl-C must reach decode as a terminal's would.
    restore = (lambda: signal.signal(signal.SIGINT, signal.SIG_DFL)) if stop == signal.SIGINT else None
    with subprocess.Popen(
        argv, cwd=home, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True, preexec_fn=restore
    ) as run:
        assert run.stdout is not None
        for line in run.stdout:  # the write is done once its result is out; then the model "thinks"
            if json.loads(line)["type"] == "tool_result":
                break
        run.send_signal(stop)
        rest, _ = run.communicate(timeout=120)
    result = json.loads(rest.splitlines()[-1])
    assert run.returncode == (130 if stop == signal.SIGINT else 128 + stop), result
    branch = f"decode/{result['session_id']}"
    assert result["handback"]["branch"] == branch
    assert git(source, "show", f"{branch}:new.txt") == "work"
