"""Fixtures for the unit tests."""

import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from decode.config.settings import Settings

SERVERS = Path(__file__).resolve().parents[1] / "integration" / "mcp" / "servers"
FORKSERVER = Path(__file__).resolve().parent / "mcp" / "forkserver.py"

ServerEntry = Callable[..., dict[str, Any]]


@pytest.fixture(scope="module")
def server_entry(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerEntry]:
    """`server_entry(script, *args)`: the `command` and `args` of an .mcp.json entry running the test
    server `script` (a name in SERVERS) as a child of this module's fork server.

    One per module, not per worker: a fork server left running is a child of the worker that the
    process tests (tests/unit/tools/test_process.py, a subreaper's leftovers) would find."""
    socket_path = tmp_path_factory.mktemp("forkserver") / "sock"
    server = subprocess.Popen(
        [sys.executable, str(FORKSERVER), str(socket_path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert server.stdin is not None
    assert server.stdout is not None
    assert server.stdout.readline() == "ready\n", "the MCP fork server did not start"
    client = [str(FORKSERVER.with_name("forkserver_client.py")), str(socket_path)]

    def entry(script: str, *args: str) -> dict[str, Any]:
        return {"command": sys.executable, "args": ["-I", "-S", *client, str(SERVERS / script), *args]}

    yield entry
    server.stdin.close()  # it ends its children and itself
    server.wait(timeout=60)
    server.stdout.close()


@pytest.fixture
def settings() -> Settings:
    """Settings from defaults only: no key, no .env (the suite's conftest clears the environment)."""
    return Settings(_env_file=None)  # type: ignore[call-arg]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """An empty Workspace directory (not made the current directory)."""
    root = tmp_path / "workspace"
    root.mkdir()
    return root
