"""Leaving decode with MCP servers running: prompt, in order (stdin closed, SIGTERM, kill), and quiet."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import decode.mcp.toolset  # noqa: F401  (pydantic-ai's MCP client, imported before any clock starts)
from decode.mcp.config import ServerConfig, parse_server
from decode.mcp.servers import McpServers, build_servers
from decode.mcp.transport import EXIT_GRACE_S
from tests.integration.conftest import DECODE

pytestmark = pytest.mark.integration

SERVERS = Path(__file__).parent / "servers"
EOF_IGNORING = SERVERS / "eof_ignoring_server.py"
ECHO = SERVERS / "echo_server.py"


def config(name: str, script: Path, home: Path, env: dict[str, str]) -> ServerConfig:
    raw = {"command": sys.executable, "args": [str(script)], "env": env}
    return ServerConfig(name, parse_server(name, raw, {}), home / ".mcp.json", "project", raw)  # type: ignore[arg-type]


async def eof_ignoring_servers(markers: list[Path], home: Path) -> McpServers:
    """One ready server per marker, each staying after its stdin ends (it writes the marker on SIGTERM)."""
    configs = [
        config(f"stays{index}", EOF_IGNORING, home, {"EOF_IGNORING_MARKER": str(marker)})
        for index, marker in enumerate(markers)
    ]
    servers = build_servers(configs, home, {"PATH": os.environ["PATH"]}, trusted_project=True)
    await servers.wait_for_starting()
    for server in servers.servers:
        await server.wait_started(time.monotonic() + 60)
        assert server.state == "ready", (server.state, server.reason, server.stderr_tail())
    return servers


async def test_a_server_ignoring_end_of_input_is_sent_sigterm_before_it_is_killed(tmp_path: Path) -> None:
    markers = [tmp_path / f"server-{index}.marker" for index in range(3)]
    servers = await eof_ignoring_servers(markers, tmp_path)

    await servers.close()

    for marker in markers:
        assert marker.with_suffix(".eof").read_text() == "stdin ended\n"  # it saw its stdin end, and stayed
        assert marker.read_text() == "SIGTERM\n"  # so it was asked to end, not killed outright


async def test_five_servers_slow_to_exit_are_asked_to_end_together_not_one_after_another(tmp_path: Path) -> None:
    markers = [tmp_path / f"slow-{index}.marker" for index in range(5)]
    servers = await eof_ignoring_servers(markers, tmp_path)

    await servers.close()

    # Each waited out its grace after its stdin closed, then got SIGTERM: one after another, the
    # SIGTERMs would be a grace apart; together, all five come within one grace (one clock for all).
    asked = [float(marker.with_suffix(".at").read_text()) for marker in markers]
    assert max(asked) - min(asked) < EXIT_GRACE_S, asked
    assert all(marker.read_text() == "SIGTERM\n" for marker in markers)


def test_decode_mcp_list_ends_without_event_loop_noise(tmp_path: Path) -> None:
    home = tmp_path / "home"
    project = tmp_path / "project"
    home.mkdir()
    project.mkdir()
    marker = tmp_path / "stays.marker"
    entries = {
        "echo": {"command": sys.executable, "args": [str(ECHO)]},
        "stays": {"command": sys.executable, "args": [str(EOF_IGNORING)], "env": {"EOF_IGNORING_MARKER": str(marker)}},
    }
    (home / ".decode").mkdir()
    (home / ".decode" / "mcp.json").write_text(json.dumps({"mcpServers": entries}))
    env = {**os.environ, "HOME": str(home)}
    for _ in range(4):  # it printed "Event loop is closed" once in four runs
        done = subprocess.run(
            [DECODE, "mcp", "list", "--no-tools"], cwd=project, env=env, capture_output=True, text=True, timeout=120
        )
        assert done.returncode == 0, done.stderr
        assert "echo · ready" in done.stdout
        assert "stays · ready" in done.stdout
        assert "Event loop is closed" not in done.stderr
        assert "Exception ignored" not in done.stderr
        assert "unclosed transport" not in done.stderr
