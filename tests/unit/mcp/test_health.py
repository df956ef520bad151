"""Servers that cannot be used, named at once: to the log (one line each), to the model, in `init`."""

import logging
import sys
from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError

import decode.mcp.toolset  # noqa: F401  (pydantic-ai's MCP client, imported before any clock starts)
from decode.mcp.config import ServerConfig, parse_server
from decode.mcp.health import first_error, init_entries, unavailable_note
from decode.mcp.servers import McpServers, build_servers
from tests.unit.mcp.conftest import SERVERS, MakeServer


@pytest.fixture
async def running():
    started: list[McpServers] = []

    def start(configs: list, home: Path) -> McpServers:
        servers = build_servers(configs, home, {}, trusted_project=False)
        started.append(servers)
        return servers

    yield start
    for servers in started:
        await servers.close()


async def test_a_server_writing_garbage_fails_at_once_naming_the_line(
    running, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Its start-up timeout is far past any slow machine: only reading the garbage ends the wait early.
    servers = running([_broken(tmp_path, "garbage")], tmp_path)
    with caplog.at_level(logging.WARNING, logger="decode.mcp"):
        await servers.wait_for_starting()

    banner = servers.servers[0]
    assert banner.state == "failed"
    assert banner.reason == (
        "answered initialize with a line that is not JSON-RPC: 'Welcome to my server! Type HELP for help.'"
    )
    assert next(r.getMessage() for r in caplog.records if "banner" in r.getMessage()).startswith(
        "MCP server banner failed: answered initialize with a line that is not JSON-RPC"
    )
    assert init_entries(servers) == [{"name": "banner", "status": "failed", "reason": banner.reason}]


async def test_a_hung_server_is_named_once_when_its_start_up_wait_ends(
    stdio: MakeServer, running, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    servers = running([stdio("hang", "hang_server.py", startup_timeout_sec=0.5)], tmp_path)
    with caplog.at_level(logging.WARNING, logger="decode.mcp"):
        await servers.wait_for_starting()
        await servers.wait_for_starting()  # a second request: not named again

    hang = servers.servers[0]
    assert hang.state == "starting"  # it may still join
    named = [r.getMessage() for r in caplog.records if "hang" in r.getMessage()]
    assert named == ["MCP server hang did not answer initialize within 0.5s: its tools are unavailable until it does"]
    assert unavailable_note(servers) == (
        "These MCP servers are unavailable, so their tools cannot be called now:\n"
        "- hang (tools mcp__hang__*): it did not answer initialize within 0.5s"
    )
    assert init_entries(servers) == [
        {"name": "hang", "status": "not answering", "reason": "it did not answer initialize within 0.5s"}
    ]


async def test_ready_servers_need_no_note(stdio: MakeServer, running, tmp_path: Path) -> None:
    servers = running([stdio("echo", "echo_server.py")], tmp_path)
    await servers.wait_for_starting()
    assert servers.servers[0].state == "ready"
    assert unavailable_note(servers) is None
    assert init_entries(servers) == [{"name": "echo", "status": "ready"}]


def test_the_first_validation_error_on_one_line() -> None:
    class Result(BaseModel):
        content: list[str]

    with pytest.raises(ValidationError) as caught:
        Result.model_validate({"content": "not a list"})
    assert first_error(caught.value) == "content: Input should be a valid list"


def _broken(tmp_path: Path, mode: str) -> ServerConfig:
    raw = {"command": sys.executable, "args": [str(SERVERS / "broken_server.py"), mode], "startup_timeout_sec": 600}
    return ServerConfig("banner", parse_server("banner", raw, {}), tmp_path / ".mcp.json", "user", raw)  # type: ignore[arg-type]
