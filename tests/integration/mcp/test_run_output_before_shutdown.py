"""`decode run` with MCP servers: the answer and the result are out before any server is stopped.

A reader of the output (a script, a CI step, a harness) has what it waits for at once; stopping
the servers (stdin closed, then SIGTERM, then kill: up to a few seconds for a slow one) comes after.
"""

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import gone, wait_for
from tests.integration.conftest import DECODE

pytestmark = pytest.mark.integration

SERVERS = Path(__file__).parent / "servers"


@pytest.fixture
def script(tmp_path: Path) -> Path:
    """A scripted model that answers "done"."""
    path = tmp_path / "script.json"
    path.write_text(json.dumps([{"text": "done"}]), encoding="utf-8")
    return path


def server(name: str, **env: str) -> dict[str, Any]:
    """The mcp.json entry that runs the test server `name` (a script in SERVERS) with `env`."""
    return {"command": sys.executable, "args": [str(SERVERS / name)], **({"env": env} if env else {})}


def user_servers(servers: dict[str, dict[str, Any]]) -> None:
    """Write `servers` to the user's ~/.decode/mcp.json (HOME: this test's empty folder, tests/conftest.py)."""
    folder = Path(os.environ["HOME"]) / ".decode"
    folder.mkdir(exist_ok=True)
    (folder / "mcp.json").write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")


def test_the_result_is_out_before_the_servers_are_stopped(tmp_path: Path, project: Path, script: Path) -> None:
    output = tmp_path / "stdout.jsonl"
    markers = [tmp_path / f"server-{index}.marker" for index in range(3)]
    watching = "output_watching_server.py"
    user_servers(
        {
            f"watch{index}": server(watching, WATCHED_OUTPUT=str(output), WATCH_MARKER=str(marker))
            for index, marker in enumerate(markers)
        }
    )

    with output.open("w", encoding="utf-8") as stdout:
        done = subprocess.run(
            [DECODE, "run", "--model", f"script:{script}", "--output-format", "stream-json", "hi"],
            cwd=project, stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120,
        )  # fmt: skip

    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
    assert events[-1]["type"] == "result"
    assert [server["status"] for server in events[0]["mcp_servers"]] == ["ready"] * 3, events[0]
    for marker in markers:
        assert marker.read_text(encoding="utf-8") == "result out\n"


@pytest.mark.parametrize("output_format", ["text", "stream-json"])
def test_stdout_ends_before_the_servers_are_stopped(
    tmp_path: Path, project: Path, script: Path, output_format: str
) -> None:
    """A reader of the pipe (`decode run | jq`) sees its end with the result, not at the exit, which
    still waits for the servers; what it read is the whole output."""
    markers = [tmp_path / f"server-{index}.marker" for index in range(2)]
    user_servers(
        {
            f"parent{index}": server("parent_stdout_server.py", PARENT_STDOUT_MARKER=str(marker))
            for index, marker in enumerate(markers)
        }
    )

    done = subprocess.run(
        [DECODE, "run", "--model", f"script:{script}", "--output-format", output_format, "hi"],
        cwd=project, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120,
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    if output_format == "text":
        assert done.stdout == "done\n"
    else:
        events = [json.loads(line) for line in done.stdout.splitlines()]
        assert [events[0]["type"], events[-1]["type"], events[-1]["result"]] == ["init", "result", "done"]
    for marker in markers:
        assert marker.read_text(encoding="utf-8") == "/dev/null\n"


def test_a_headless_run_does_not_import_the_result_validators_ahead(project: Path, script: Path) -> None:
    """The REPL imports them on a thread once a server is ready, so a tool's first result does not
    freeze its screen; `decode run` has no screen, and a thread still importing slows its exit."""
    user_servers({"echo": server("echo_server.py")})

    done = subprocess.run(
        [DECODE, "run", "--model", f"script:{script}", "--output-format", "stream-json", "hi"],
        cwd=project, env={**os.environ, "PYTHONPROFILEIMPORTTIME": "1"}, stdin=subprocess.DEVNULL,
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    first = json.loads(done.stdout.splitlines()[0])
    assert [server["status"] for server in first["mcp_servers"]] == ["ready"]
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "mcp.client.session" in imported  # the MCP client was loaded (and importtime reports)
    assert not {name for name in imported if name.split(".")[0] in ("jsonschema", "referencing")}


def _sigint_as_in_a_terminal() -> None:
    """decode as a shell starts it: Ctrl-C's default. An ignored SIGINT is inherited, and the suite
    itself may run with it ignored: a shell without job control starts a `&` job so (decode then
    rightly ignores it too)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_while_the_servers_stop_ends_the_run_as_that_signal_quietly(
    tmp_path: Path, project: Path, script: Path, signum: int
) -> None:
    """The answer is out and saved; Ctrl-C (or SIGTERM) during the servers' shutdown still exits
    128 + the signal (a script's loop stops), ends every server, and asyncio says nothing."""
    for attempt in range(3):  # the signal must land during the shutdown: missed, the run is tried again
        markers = [tmp_path / f"stays-{attempt}-{index}.marker" for index in range(3)]
        user_servers({m.stem: server("term_ignoring_server.py", TERM_IGNORING_MARKER=str(m)) for m in markers})
        process = subprocess.Popen(
            [DECODE, "run", "--model", f"script:{script}", "--output-format", "stream-json", "hi"],
            cwd=project, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            preexec_fn=_sigint_as_in_a_terminal,
        )  # fmt: skip
        try:
            assert process.stdout is not None
            events = []
            while not events or events[-1]["type"] != "result":  # the result is out: the shutdown begins
                events.append(json.loads(process.stdout.readline()))
            assert wait_for(lambda markers=markers: all(m.exists() for m in markers)), "no SIGTERM to every server"
            if process.poll() is None:
                process.send_signal(signum)
            _, stderr = process.communicate(timeout=60)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
        if process.returncode == 128 + signum:
            break
    assert events[-1]["type"] == "result", events[-1]
    assert events[-1]["exit_code"] == 0, events[-1]  # the result keeps the answer's own code
    assert process.returncode == 128 + signum, stderr
    for noise in ("Traceback", "exit status already read", "Exception ignored", "Event loop is closed", "Task was"):
        assert noise not in stderr, stderr
    for marker in markers:  # each was killed, none left behind
        pid = int(marker.with_suffix(".pid").read_text())
        assert gone(pid), f"server {pid} is still running"
