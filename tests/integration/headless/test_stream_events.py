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


def test_mcp_config_adds_servers_and_strict_keeps_only_them(project: Path, tmp_path: Path) -> None:
    folder = Path(os.environ["HOME"]) / ".decode"
    folder.mkdir(exist_ok=True)
    echo = {"command": sys.executable, "args": [str(ECHO_SERVER)]}
    (folder / "mcp.json").write_text(json.dumps({"mcpServers": {"mine": echo}}), encoding="utf-8")
    given = tmp_path / "ci-mcp.json"
    given.write_text(json.dumps({"mcpServers": {"ci": echo}}), encoding="utf-8")
    model = script(project.parent / "s.json", [{"text": "ok"}])

    def servers(*extra: str) -> list[str]:
        done = _headless("--output-format", "stream-json", *extra, "--model", model, "hi", cwd=project)
        assert done.returncode == 0, done.stderr
        return [server["name"] for server in json.loads(done.stdout.splitlines()[0])["mcp_servers"]]

    assert servers("--mcp-config", str(given)) == ["mine", "ci"]
    assert servers("--mcp-config", str(given), "--strict-mcp-config") == ["ci"]
    missing = _headless("--mcp-config", str(tmp_path / "none.json"), "--model", model, "hi", cwd=project)
    assert missing.returncode == 2
    assert "does not exist" in missing.stderr
