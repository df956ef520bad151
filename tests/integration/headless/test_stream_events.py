"""What stream-json tells a script at the start and as the text streams: the `init` event's lists
(tools with MCP's, agents, skills), and `--include-partial-messages`."""

import json
import os
import sys
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from tests.conftest import script
from tests.integration.runtime.conftest import SCHEMA_PATH, _headless

pytestmark = pytest.mark.integration

ECHO_SERVER = Path(__file__).parents[1] / "mcp" / "servers" / "echo_server.py"


def test_init_lists_the_mcp_tools_agents_and_skills_and_partial_text_streams(project: Path) -> None:
    folder = Path(os.environ["HOME"]) / ".decode"
    folder.mkdir(exist_ok=True)
    servers = {"mcpServers": {"echo": {"command": sys.executable, "args": [str(ECHO_SERVER)]}}}
    (folder / "mcp.json").write_text(json.dumps(servers), encoding="utf-8")
    model = script(project.parent / "s.json", [{"text": "All done here."}])
    args = ["--output-format", "stream-json", "--include-partial-messages", "--model", model, "hi"]
    done = _headless(*args, cwd=project)
    assert done.returncode == 0, done.stderr
    validator = Draft202012Validator(json.loads(SCHEMA_PATH.read_text()))
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert all(validator.is_valid(line) for line in lines), [line["type"] for line in lines]
    init = lines[0]
    assert {"bash", "agent", "mcp__echo__echo", "mcp__echo__add"} <= set(init["tools"])
    assert {"explore", "plan"} <= set(init["agents"])
    assert "commit" in init["skills"]
    deltas = [line["text"] for line in lines if line["type"] == "text_delta"]
    assert "".join(deltas) == "All done here."  # the pieces, then the coalesced text
    assert [line["text"] for line in lines if line["type"] == "text"] == ["All done here."]
