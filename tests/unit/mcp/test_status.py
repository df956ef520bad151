"""What `decode mcp list` and `/mcp` print for each server."""

from pathlib import Path

from mcp import types

from decode.mcp.servers import build_servers
from decode.mcp.status import describe_servers
from tests.unit.mcp.conftest import MakeServer


def test_each_state_is_shown_with_its_file_and_a_ready_servers_tools(stdio: MakeServer, tmp_path: Path) -> None:
    configs = [
        stdio("ok", "echo_server.py"),
        stdio("bad", "echo_server.py"),
        stdio("off", "echo_server.py", disabled=True),
        stdio("theirs", "echo_server.py", scope="project"),
    ]
    servers = build_servers(configs, tmp_path, {}, trusted_project=False)
    ok, bad = servers.servers[:2]
    ok.state = "ready"
    ok.tools = [
        types.Tool(name="get time", description="What time it is\n  somewhere", input_schema={"type": "object"})
    ]
    bad.state, bad.reason = "failed", "no answer to initialize within 60s"

    lines = describe_servers(servers, tmp_path)

    assert lines == [
        "ok · ready · 1 tools · .mcp.json (user)",
        "  mcp__ok__get_time  What time it is somewhere",
        "bad · failed: no answer to initialize within 60s · .mcp.json (user)",
        "off · disabled · .mcp.json (user)",
        "theirs · untrusted: not started until you trust this project's servers (the REPL asks, or: decode mcp "
        "trust) · .mcp.json (project)",
    ]


def test_without_servers_it_says_where_they_go(tmp_path: Path) -> None:
    assert describe_servers(None, tmp_path) == [
        "no MCP servers: add them to .mcp.json (this project) or ~/.decode/mcp.json (yours)"
    ]


def test_what_a_server_says_is_shown_not_obeyed(stdio: MakeServer, tmp_path: Path) -> None:
    servers = build_servers([stdio("evil\x1b]0;title\x07", "echo_server.py")], tmp_path, {}, trusted_project=False)
    [evil] = servers.servers
    evil.state = "ready"
    evil.tools = [types.Tool(name="t", description="sets \x1b]52;c;cHduZWQ=\x07 the clipboard", input_schema={})]

    lines = describe_servers(servers, tmp_path)

    assert lines[0].startswith("evil␛]0;title␇ · ready")
    assert lines[1] == "  mcp__evil_0_title__t  sets ␛]52;c;cHduZWQ=␇ the clipboard"
