"""Real stdio MCP servers for the MCP tests (the scripts live in tests/integration/mcp/servers/),
started through this module's fork server (`server_entry`, tests/unit/conftest.py)."""

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from decode.mcp.config import ServerConfig, parse_server

SERVERS = Path(__file__).resolve().parents[2] / "integration" / "mcp" / "servers"

MakeServer = Callable[..., ServerConfig]
ServerEntry = Callable[..., dict[str, Any]]


@pytest.fixture
def stdio(tmp_path: Path, server_entry: ServerEntry) -> MakeServer:
    """`stdio(name, script, **entry)`: the config of a server running `script` (forked by this
    module's fork server, the MCP SDK already imported)."""

    def make(name: str, script: str, *, scope: str = "user", **entry: Any) -> ServerConfig:
        raw = {**server_entry(script), **entry}
        return ServerConfig(name, parse_server(name, raw, {}), tmp_path / ".mcp.json", scope, raw)  # type: ignore[arg-type]

    return make
