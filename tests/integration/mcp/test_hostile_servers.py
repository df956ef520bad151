"""Hostile MCP servers through the real CLI: each is named on one line at once (stderr and the
stream-json `init` event), the model is told their tools are unavailable, and a malformed answer
to a call is an error at once. The servers are hand-written (`servers/broken_server.py`)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import own_settings
from tests.integration.conftest import DECODE
from tests.integration.forkserver import as_text, run_forked
from tests.integration.mcp.conftest import checked

pytestmark = pytest.mark.integration

SERVERS = Path(__file__).parent / "servers"


def run(project: Path, servers: dict, calls: list[dict], *options: str) -> subprocess.CompletedProcess[str]:
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    (project / ".decode").mkdir(exist_ok=True)
    rules = {"permissions": {"allow": [f"mcp__{name}" for name in servers]}}
    own_settings(project / ".decode" / "settings.local.json", json.dumps(rules))
    script = project.parent / "script.json"
    script.write_text(json.dumps([{"tool_calls": calls}, {"text": "done"}] if calls else [{"text": "done"}]))
    argv = [str(DECODE), "run", "--model", f"script:{script}", "--trust-project-mcp", *options, "go"]
    # A process of its own, forked from one that imported the CLI already (tests/integration/forkserver.py).
    return as_text(run_forked(argv, cwd=project, env=dict(os.environ)))


def broken(mode: str, **entry: object) -> dict:
    return {"command": sys.executable, "args": [str(SERVERS / "broken_server.py"), mode], **entry}


def init_event(done: subprocess.CompletedProcess[str]) -> dict:
    return checked(done.stdout.splitlines()[0])


def sent_to_model(project: Path) -> str:
    return "".join(path.read_text() for path in (project / ".decode" / "sessions").glob("*.jsonl"))


def test_a_server_that_answers_garbage_is_named_at_once(project: Path) -> None:
    # A start-up timeout far past any slow machine: only detecting the garbage can end the wait early.
    done = run(project, {"banner": broken("garbage", startup_timeout_sec=600)}, [], "--output-format", "stream-json")

    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if "MCP server banner failed" in line]
    assert len(said) == 1
    assert "answered initialize with a line that is not JSON-RPC: 'Welcome to my server!" in said[0]
    [server] = init_event(done)["mcp_servers"]
    assert server["name"] == "banner"
    assert server["status"] == "failed"
    assert "not JSON-RPC" in server["reason"]


def test_a_server_that_hangs_in_initialize_is_named_when_its_start_up_wait_ends(project: Path) -> None:
    hang = {"command": sys.executable, "args": [str(SERVERS / "hang_server.py")], "startup_timeout_sec": 2}
    call = {"name": "mcp__hang__anything", "args": {}}

    done = run(project, {"hang": hang}, [call], "--output-format", "stream-json")

    assert done.returncode == 0, done.stderr
    assert done.stderr.count("MCP server hang did not answer initialize within 2s") == 1
    [server] = init_event(done)["mcp_servers"]
    assert server == {"name": "hang", "status": "not answering", "reason": "it did not answer initialize within 2s"}
    told = sent_to_model(project)
    assert "These MCP servers are unavailable" in told
    assert "hang (tools mcp__hang__*): it did not answer initialize within 2s" in told


def test_a_server_that_exits_at_once_is_in_the_init_event(project: Path) -> None:
    gone = {"command": "sh", "args": ["-c", "echo 'no config at /etc/srv' >&2; exit 3"], "startup_timeout_sec": 600}

    done = run(project, {"gone": gone}, [], "--output-format", "stream-json")

    assert done.returncode == 0, done.stderr
    assert done.stderr.count("MCP server gone failed") == 1
    assert "no config at /etc/srv" in done.stderr
    [server] = init_event(done)["mcp_servers"]
    assert server["status"] == "failed"


@pytest.mark.parametrize(
    ("mode", "why"),
    [
        ("scalar", "result: Input should be a valid dictionary"),  # not even a JSON-RPC answer
        ("malformed", "content: Input should be a valid list"),  # a JSON-RPC answer, not a CallToolResult
    ],
)
def test_a_malformed_result_is_an_error_at_once(project: Path, mode: str, why: str) -> None:
    # A tool timeout far past any slow machine: the run ends early only if the answer is judged at once.
    done = run(project, {"bad": broken(mode, tool_timeout_sec=600)}, [{"name": "mcp__bad__get", "args": {}}])

    assert done.returncode == 0, done.stderr
    assert "✗ mcp__bad__get()" in done.stderr
    told = sent_to_model(project)
    assert "the MCP server's answer was malformed" in told
    assert why in told
    assert "crashed" not in told  # an answer: the server is alive, its tools stay
    assert "MCP server bad failed" not in done.stderr
