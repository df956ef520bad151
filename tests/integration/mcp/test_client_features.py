"""What an MCP server may ask of decode, through the real CLI: progress (stderr and stream-json),
roots (the Workspace), sampling (refused headless unless DECODE_MCP_SAMPLING=allow, then decode's
own model answers) and elicitation (declined headless). The server is `servers/features_server.py`."""

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

FEATURES = {"command": sys.executable, "args": [str(Path(__file__).parent / "servers" / "features_server.py")]}


def run(project: Path, script: list[dict], *options: str, env: dict | None = None) -> subprocess.CompletedProcess[str]:
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"features": FEATURES}}))
    (project / ".decode").mkdir(exist_ok=True)
    own_settings(project / ".decode" / "settings.local.json", json.dumps({"permissions": {"allow": ["mcp__features"]}}))
    path = project.parent / "script.json"
    path.write_text(json.dumps(script))
    argv = [str(DECODE), "run", "--model", f"script:{path}", "--trust-project-mcp", *options, "go"]
    # A process of its own, forked from one that imported the CLI already (tests/integration/forkserver.py).
    return as_text(run_forked(argv, cwd=project, env={**os.environ, **(env or {})}))


def call(tool: str, **args: object) -> dict:
    return {"tool_calls": [{"name": f"mcp__features__{tool}", "args": args}]}


def events(done: subprocess.CompletedProcess[str]) -> list[dict]:
    return [checked(line) for line in done.stdout.splitlines()]


def result_of(done: subprocess.CompletedProcess[str]) -> str:
    [result] = [event for event in events(done) if event["type"] == "tool_result"]
    return result["content"]


def test_progress_of_a_call_is_shown_on_stderr_and_streamed(project: Path) -> None:
    done = run(project, [call("steps", count=3), {"text": "done"}], "--output-format", "stream-json")

    assert done.returncode == 0, done.stderr
    assert "  ⋯ mcp__features__steps 2/3 (67%) · step 2 of 3" in done.stderr
    [tool_call] = [event for event in events(done) if event["type"] == "tool_call"]
    shown = [event for event in events(done) if event["type"] == "progress"]
    assert [(e["id"], e["name"], e["progress"], e["total"], e["message"]) for e in shown] == [
        (tool_call["id"], "mcp__features__steps", float(step), 3.0, f"step {step} of 3") for step in (1, 2, 3)
    ]
    assert result_of(done) == "3 steps done"


def test_the_workspace_is_the_servers_root(project: Path) -> None:
    done = run(project, [call("roots"), {"text": "done"}], "--output-format", "stream-json")

    assert done.returncode == 0, done.stderr
    assert result_of(done) == project.resolve().as_uri()


def test_sampling_is_refused_headless_by_default(project: Path) -> None:
    done = run(project, [call("summarize", text="a long text"), {"text": "done"}], "--output-format", "stream-json")

    assert done.returncode == 0, done.stderr
    assert "MCP server features asked decode's model: refused (no one to ask in a headless run" in done.stderr
    assert "DECODE_MCP_SAMPLING=allow" in result_of(done)


def test_sampling_allowed_by_the_setting_asks_decodes_own_model(project: Path) -> None:
    script = [call("summarize", text="a long text"), {"text": "a short summary"}, {"text": "done"}]

    done = run(project, script, "--output-format", "stream-json", env={"DECODE_MCP_SAMPLING": "allow"})

    assert done.returncode == 0, done.stderr
    assert "MCP server features asked decode's model: Summarize: a long text" in done.stderr  # shown
    assert result_of(done) == "the model said: a short summary"


def test_elicitation_is_declined_headless(project: Path) -> None:
    done = run(project, [call("pick_number"), {"text": "done"}], "--output-format", "stream-json")

    assert done.returncode == 0, done.stderr
    assert result_of(done) == "the user chose: decline"
    assert "MCP server features asked the user (Which port?): declined, no one to ask in a headless run" in done.stderr
