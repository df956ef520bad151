"""`decode mcp list` and `decode mcp trust` through click (the real servers: tests/integration/mcp)."""

import json
from pathlib import Path

from click.testing import CliRunner

from decode.commands.mcp import mcp
from decode.mcp.trust import TRUST_FILE


def test_list_without_servers_says_where_they_go(project: Path) -> None:
    done = CliRunner().invoke(mcp, ["list"])
    assert done.exit_code == 0, done.output
    assert done.output == "no MCP servers: add them to .mcp.json (this project) or ~/.decode/mcp.json (yours)\n"


def test_trust_without_project_servers_is_an_error(project: Path) -> None:
    done = CliRunner().invoke(mcp, ["trust"])
    assert done.exit_code == 1
    assert "names no MCP server to trust" in done.output


def test_trust_remembers_the_projects_servers(project: Path) -> None:
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"a": {"command": "a"}, "b": {"command": "b"}}}))
    done = CliRunner().invoke(mcp, ["trust"])
    assert done.exit_code == 0, done.output
    assert done.output.startswith(f"trusted a, b for {project}")
    assert str(project) in json.loads((Path.home() / TRUST_FILE).read_text())
