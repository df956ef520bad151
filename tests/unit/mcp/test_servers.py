"""MCP servers in the background, against real stdio servers: ready, hung, crashed, their environment."""

import json
import logging
import time
from pathlib import Path

import pytest

import decode.mcp.toolset  # noqa: F401  (pydantic-ai's MCP client, imported before any clock starts)
from decode.mcp import warmup
from decode.mcp.server_log import LOG_DIR
from decode.mcp.servers import McpServers, build_servers
from tests.unit.mcp.conftest import MakeServer


@pytest.fixture
async def running():
    """`running(configs, env)`: the servers, started; stopped when the test ends."""
    started: list[McpServers] = []

    def start(configs: list, home: Path, environment: dict | None = None) -> McpServers:
        servers = build_servers(configs, home, environment or {}, trusted_project=False)
        servers.start()
        started.append(servers)
        return servers

    yield start
    for servers in started:
        await servers.close()


async def test_servers_start_together_and_offer_their_tools(stdio: MakeServer, running, tmp_path: Path) -> None:
    servers = running([stdio("echo", "echo_server.py"), stdio("many", "many_tools_server.py")], tmp_path)

    await servers.wait_for_starting()

    assert [(s.name, s.state) for s in servers.servers] == [("echo", "ready"), ("many", "ready")]
    assert {tool.name for tool in servers.servers[0].tools} == {"echo", "add", "big", "slow", "crash"}
    assert len(servers.servers[1].tools) == 100
    toolset = servers.servers[0].toolset
    assert toolset is not None
    assert await toolset.direct_call_tool("add", {"a": 2, "b": 3}) == 5
    assert "echo server: started" in (tmp_path / LOG_DIR / "echo.log").read_text()  # stderr: its log, not the screen


async def test_disabled_and_untrusted_servers_do_not_start(stdio: MakeServer, tmp_path: Path) -> None:
    configs = [stdio("off", "echo_server.py", disabled=True), stdio("theirs", "echo_server.py", scope="project")]
    servers = build_servers(configs, tmp_path, {}, trusted_project=False)
    servers.start()
    await servers.wait_for_starting()
    assert [s.state for s in servers.servers] == ["disabled", "untrusted"]
    assert [c.name for c in servers.untrusted] == ["theirs"]
    assert not (tmp_path / LOG_DIR).exists()  # no process was started


async def test_a_server_that_never_answers_is_waited_for_only_until_its_timeout(
    stdio: MakeServer, running, tmp_path: Path
) -> None:
    servers = running([stdio("hang", "hang_server.py", startup_timeout_sec=0.3)], tmp_path)
    hang = servers.servers[0]

    await servers.wait_for_starting()
    assert hang.state == "starting"  # past its start-up timeout: requests go on without it

    await hang.wait_started(time.monotonic() + 30)
    assert hang.state == "failed"
    assert hang.reason == "no answer to initialize within 1.8s"
    assert "never answering" in hang.stderr_tail()


async def test_a_server_that_exits_at_once_is_failed_with_its_stderr(running, tmp_path: Path) -> None:
    from decode.mcp.config import ServerConfig, parse_server

    raw = {"command": "sh", "args": ["-c", "echo 'no such database' >&2; exit 4"]}
    servers = running([ServerConfig("broken", parse_server("broken", raw, {}), tmp_path / "x", "user", raw)], tmp_path)
    await servers.servers[0].wait_started(time.monotonic() + 30)
    assert servers.servers[0].state == "failed"
    assert servers.servers[0].stderr_tail() == "no such database"


async def test_a_command_that_does_not_exist_is_failed(running, tmp_path: Path) -> None:
    from decode.mcp.config import ServerConfig, parse_server

    raw = {"command": str(tmp_path / "missing-server")}
    servers = running([ServerConfig("gone", parse_server("gone", raw, {}), tmp_path / "x", "user", raw)], tmp_path)
    await servers.servers[0].wait_started(time.monotonic() + 30)
    assert servers.servers[0].state == "failed"
    assert servers.servers[0].reason


async def test_a_crash_is_reported_withdrawn_and_reconnected_once(stdio: MakeServer, running, tmp_path: Path) -> None:
    servers = running([stdio("echo", "echo_server.py")], tmp_path)
    await servers.wait_for_starting()
    echo = servers.servers[0]

    await echo.crashed(RuntimeError("Connection closed"))
    assert echo.state == "starting"
    assert echo.reconnected
    await echo.wait_started(time.monotonic() + 30)
    assert echo.state == "ready"

    await echo.crashed(RuntimeError("Connection closed"))
    assert echo.state == "failed"  # only once
    assert echo.tools == []
    assert echo.toolset is None


async def test_the_server_gets_decodes_filtered_environment_and_its_own_env(
    stdio: MakeServer, running, tmp_path: Path
) -> None:
    seen = tmp_path / "env.json"
    config = stdio("echo", "echo_server.py", env={"ECHO_SERVER_ENV_FILE": str(seen), "OWN": "mine"})
    servers = running([config], tmp_path, {"PATH": "/usr/bin:/bin", "SAFE": "1"})

    await servers.wait_for_starting()

    env = json.loads(seen.read_text())
    assert env["SAFE"] == "1"
    assert env["OWN"] == "mine"
    assert not {"GEMINI_API_KEY", "OPENROUTER_API_KEY"} & set(env)


@pytest.fixture
def http_echo(tmp_path: Path):
    """The echo server over streamable HTTP on 127.0.0.1; yields its URL."""
    import socket
    import subprocess
    import sys

    from tests.conftest import wait_for
    from tests.unit.mcp.conftest import SERVERS

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    log = (tmp_path / "http.log").open("w")
    process = subprocess.Popen([sys.executable, str(SERVERS / "echo_server.py"), "--http", str(port)], stderr=log)

    def listening() -> bool:
        with socket.socket() as attempt:
            return attempt.connect_ex(("127.0.0.1", port)) == 0

    wait_for(listening)
    yield f"http://127.0.0.1:{port}/mcp"
    process.terminate()
    process.wait(timeout=10)
    log.close()


async def test_an_http_server_is_reached_at_its_url(running, tmp_path: Path, http_echo: str) -> None:
    from decode.mcp.config import ServerConfig, parse_server

    raw = {"type": "http", "url": "${ECHO_URL}", "headers": {"X-Team": "${TEAM:-core}"}}
    definition = parse_server("web", raw, {"ECHO_URL": http_echo})
    servers = running([ServerConfig("web", definition, tmp_path / "x", "user", raw)], tmp_path)

    await servers.wait_for_starting()

    web = servers.servers[0]
    assert web.state == "ready", web.reason
    assert web.toolset is not None
    assert await web.toolset.direct_call_tool("echo", {"text": "over http"}) == "over http"


@pytest.mark.parametrize("planted", ["file", "directory"])
async def test_a_log_planted_as_a_symbolic_link_is_not_followed(
    planted: str, stdio: MakeServer, running, tmp_path: Path
) -> None:
    # A cloned repository can ship `.decode/logs/mcp/echo.log -> ~/.bashrc`: the user's own server
    # would append its stderr there.
    project, outside = tmp_path / "project", tmp_path / "outside"
    outside.mkdir()
    victim = outside / "echo.log"
    victim.write_text("precious\n")
    log_dir = project / LOG_DIR
    if planted == "file":
        log_dir.mkdir(parents=True)
        (log_dir / "echo.log").symlink_to(victim)
    else:
        log_dir.parent.mkdir(parents=True)
        log_dir.symlink_to(outside)
    servers = running([stdio("echo", "echo_server.py")], project)

    await servers.wait_for_starting()

    assert victim.read_text() == "precious\n"
    [echo] = servers.servers
    assert echo.state == "failed"
    assert ("leads outside the project" if planted == "file" else "leads out of") in echo.reason


async def test_a_servers_log_notifications_never_reach_the_screen(
    stdio: MakeServer, running, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    servers = running([stdio("hostile", "hostile_server.py")], tmp_path)
    await servers.wait_for_starting()
    [hostile] = servers.servers
    assert hostile.toolset is not None

    assert await hostile.toolset.direct_call_tool("flood", {"count": 20}) == "after flood"

    assert "notification" not in capfd.readouterr().err


async def test_what_a_failed_server_says_cannot_drive_the_terminal(
    running, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from decode.mcp.config import ServerConfig, parse_server

    raw = {"command": "sh", "args": ["-c", r"printf 'bad \033]52;c;cHduZWQ=\007 \033[2J\n' >&2; exit 4"]}
    name = "evil\x1b[8m"
    config = ServerConfig(name, parse_server(name, raw, {}), tmp_path / "x", "user", raw)
    with caplog.at_level(logging.WARNING, logger="decode.mcp"):
        servers = running([config], tmp_path)
        await servers.servers[0].wait_started(time.monotonic() + 30)

    [report] = [record.getMessage() for record in caplog.records]
    assert "bad ␛]52;c;cHduZWQ=␇ ␛[2J" in report  # shown, not obeyed
    assert "evil␛[8m" in report
    assert "\x1b" not in report


@pytest.mark.parametrize("warm_ahead", [True, False])
async def test_a_ready_server_imports_the_result_validators_ahead_only_when_asked_to(
    stdio: MakeServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, warm_ahead: bool
) -> None:
    monkeypatch.setattr(warmup, "_warming", None)
    servers = build_servers(
        [stdio("echo", "echo_server.py")], tmp_path, {}, trusted_project=False, warm_ahead=warm_ahead
    )
    servers.start()
    try:
        await servers.wait_for_starting()

        assert servers.servers[0].state == "ready", servers.servers[0].reason
        assert (warmup.warming() is not None) is warm_ahead  # ready, then it goes on to wait for its stop
    finally:
        await servers.close()
