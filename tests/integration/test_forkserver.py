"""The fork server the integration tests run `decode` through gives what a fresh `decode` process gives."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.integration.forked_process import ForkedProcess, spawn_forked
from tests.integration.forkserver import DECODE, as_text, run_forked, shared


def fresh(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)


@pytest.mark.parametrize(
    "args",
    [
        ["--version"],
        ["--no-such-option"],  # click's usage error: exit 2
        ["run", "--model", "script:missing.json", "hi"],  # decode's own one-line error: exit 2
        ["run", "--model", "script:hello.json", "--output-format", "json", "hi"],  # a whole turn: exit 0
    ],
)
def test_a_forked_run_is_what_a_fresh_process_gives(project: Path, args: list[str]) -> None:
    (project / "hello.json").write_text(json.dumps([{"text": "Hello from the script."}]))
    env = dict(os.environ)
    forked = as_text(run_forked([DECODE, *args], cwd=project, env=env))
    plain = fresh([DECODE, *args], project, env)
    assert shared().serves([DECODE, *args], env)  # it did fork, not fall back
    assert forked.returncode == plain.returncode
    if "--output-format" in args:  # the session id and timings differ from run to run
        assert json.loads(forked.stdout)["result"] == json.loads(plain.stdout)["result"] == "Hello from the script."
    else:
        assert (forked.stdout, forked.stderr) == (plain.stdout, plain.stderr)


def test_a_run_gets_its_own_directory_environment_and_stdin(project: Path) -> None:
    turns = [{"tool_calls": [{"name": "bash", "args": {"command": "pwd; echo $MARK; cat"}}]}, {"text": "ok"}]
    (project / "turns.json").write_text(json.dumps(turns))
    argv = [
        DECODE,
        "run",
        "--model",
        "script:turns.json",
        "--permission-mode",
        "bypass",
        "--output-format",
        "stream-json",
    ]
    done = as_text(run_forked([*argv, "go"], cwd=project, env={**os.environ, "MARK": "marked"}, input=b""))
    assert done.returncode == 0, done.stderr
    (result,) = [event for event in map(json.loads, done.stdout.splitlines()) if event["type"] == "tool_result"]
    lines = result["content"].splitlines()
    assert str(project) in lines
    assert "marked" in lines
    assert "MARK" not in os.environ  # the test process is untouched


def test_an_environment_that_changes_how_python_starts_gets_a_fresh_process(project: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(project)}
    (project / "decode").mkdir()
    (project / "decode" / "__init__.py").write_text("raise SystemExit('the decode on PYTHONPATH')\n")
    (project / "decode" / "__main__.py").write_text("")
    assert not shared().serves([DECODE, "--version"], env)
    done = as_text(run_forked([DECODE, "--version"], cwd=project, env=env))
    assert (done.returncode, done.stderr.strip()) == (1, "the decode on PYTHONPATH")


def test_the_server_imports_what_a_fresh_run_does_and_no_mcp_client_stack() -> None:
    # A forked run must load the MCP stack (deferred imports, fastmcp's settings) the way a fresh one does.
    root = Path(__file__).parents[2]
    code = (
        "from tests.integration.forkserver import warm\nwarm()\nimport sys\nprint({'fastmcp', 'mcp'} & {*sys.modules})"
    )
    done = subprocess.run(
        [sys.executable, "-P", "-c", code],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "set()"


def test_a_spawned_run_ends_with_its_exit_code_and_output_or_dies_by_sigkill(project: Path) -> None:
    (project / "hello.json").write_text(json.dumps([{"text": "Hello from the script."}]))
    env = dict(os.environ)
    done = spawn_forked([DECODE, "run", "--model", "script:hello.json", "hi"], cwd=project, env=env)
    assert isinstance(done, ForkedProcess)  # it did fork, not fall back
    stdout, stderr = done.communicate(timeout=120)
    assert (done.returncode, stdout) == (0, b"Hello from the script.\n"), stderr

    turns = [
        {
            "tool_calls": [
                {"name": "bash", "args": {"command": "echo $PPID > started; while kill -0 $PPID; do sleep 0.1; done"}}
            ]
        }
    ]
    (project / "slow.json").write_text(json.dumps(turns))
    argv = [DECODE, "run", "--model", "script:slow.json", "--permission-mode", "bypass", "go"]
    killed = spawn_forked(argv, cwd=project, env=env)
    deadline = time.monotonic() + 120
    while not (project / "started").exists():  # the run is well under way
        assert killed.poll() is None
        assert time.monotonic() < deadline
        time.sleep(0.01)
    os.kill(killed.pid, signal.SIGKILL)
    killed.communicate(timeout=120)
    assert killed.returncode == -signal.SIGKILL
    assert (project / "started").read_text().strip() == str(killed.pid)  # so the command ends with decode
