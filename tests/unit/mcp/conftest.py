"""Real stdio MCP servers for the MCP tests (the scripts live in tests/integration/mcp/servers/)."""

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from decode.mcp.config import ServerConfig, parse_server

SERVERS = Path(__file__).resolve().parents[2] / "integration" / "mcp" / "servers"

MakeServer = Callable[..., ServerConfig]


@pytest.fixture
def stdio(tmp_path: Path) -> MakeServer:
    """`stdio(name, script, **entry)`: the config of a server running `script` with this Python."""

    def make(name: str, script: str, *, scope: str = "user", **entry: Any) -> ServerConfig:
        raw = {"command": sys.executable, "args": [str(SERVERS / script)], **entry}
        return ServerConfig(name, parse_server(name, raw, {}), tmp_path / ".mcp.json", scope, raw)  # type: ignore[arg-type]

    return make
