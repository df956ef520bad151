"""Subagents and MCP tools: a child has an MCP server's tools only when its agent lists them."""

import json
import sys
from pathlib import Path

import pytest

from tests.conftest import own_settings
from tests.integration.conftest import RunDecode

pytestmark = pytest.mark.integration

TIME_SERVER = Path(sys.executable).parent / "mcp-server-time"


def test_only_the_child_whose_agent_lists_the_server_gets_its_tools(project: Path, decode_cmd: RunDecode) -> None:
    servers = {"time": {"command": str(TIME_SERVER), "args": ["--local-timezone", "UTC"]}}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": servers}))
    (project / ".decode" / "agents").mkdir(parents=True)
    own_settings(project / ".decode" / "settings.local.json", json.dumps({"permissions": {"allow": ["mcp__time"]}}))
    (project / ".decode" / "agents" / "clock.md").write_text(
        "---\nname: clock\ndescription: Tells the time.\ntools: mcp__time\n---\nAnswer with the time.\n"
    )
    spawn = [
        {"name": "agent", "args": {"prompt": "What time is it?", "agent": "clock", "description": "clock"}},
        {"name": "agent", "args": {"prompt": "What time is it?", "agent": "general", "description": "general"}},
    ]
    parent = project.parent / "parent.json"
    parent.write_text(json.dumps([{"tool_calls": spawn}, {"text": "asked both"}]))
    child = project.parent / "child.json"
    call = {"name": "mcp__time__get_current_time", "args": {"timezone": "UTC"}}
    child.write_text(json.dumps([{"tool_calls": [call]}, {"text": "done"}]))

    done = decode_cmd(
        "run", "--trust-project-mcp", "--model", f"script:{parent}", "what time is it?",
        cwd=project, env={"DECODE_SUBAGENT_MODEL": f"script:{child}"},
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    (log,) = (project / ".decode" / "sessions").glob("*.jsonl")
    transcripts = {path.name.split("-")[0]: path.read_text() for path in log.with_suffix(".agents").glob("*.jsonl")}
    assert set(transcripts) == {"clock", "general"}
    assert "is_dst" in transcripts["clock"]  # the server answered the child that lists it
    assert "is_dst" not in transcripts["general"]  # the other child was never offered the tool
    assert "mcp__time__get_current_time" in transcripts["general"]  # it asked, and was told no such tool
