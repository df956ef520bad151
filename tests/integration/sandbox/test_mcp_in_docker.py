"""A stdio MCP server under `--sandbox docker` (ADR-0067): started through the executor, it runs in
the container, with the sandbox's environment. The image has no Python: the server is POSIX sh."""

import asyncio
import json
import shutil
import socket
import subprocess
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import decode.mcp.toolset  # noqa: F401  (pydantic-ai's MCP client, imported before any clock starts)
from decode.config.settings import Settings
from decode.entities.executor import ExecRequest
from decode.mcp.loading import load_servers
from decode.sandbox.backends import open_sandbox
from decode.sandbox.executor import SandboxExecutor
from decode.sandbox.types import SandboxMode

pytestmark = pytest.mark.integration

SH_SERVER = Path(__file__).resolve().parents[1] / "mcp" / "servers" / "sh_server.sh"
SECRET = "sk-host-secret-docker-0123456789"


@pytest.fixture
async def sandbox(docker_host, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[SandboxExecutor]:
    monkeypatch.setenv("GEMINI_API_KEY", SECRET)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    await asyncio.to_thread(subprocess.run, ["git", "init", "-q", str(workspace)], check=True)
    shutil.copy(SH_SERVER, workspace / "sh_server.sh")  # only the Workspace is mounted in the container
    settings = Settings(_env_file=None, sandbox_image=docker_host.image)  # type: ignore[call-arg]
    executor = open_sandbox(SandboxMode.DOCKER, workspace.resolve(), settings)
    await executor.start()
    yield executor
    await executor.close()


async def test_a_server_in_docker_runs_in_the_container_with_the_sandboxs_environment(
    sandbox: SandboxExecutor, tmp_path: Path
) -> None:
    workspace = sandbox.workspace
    entry = {"command": "sh", "args": ["sh_server.sh"]}
    (workspace / ".mcp.json").write_text(json.dumps({"mcpServers": {"sh": entry}}))
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    servers = load_servers(workspace, settings, trust_project=True, user_home=tmp_path / "user", executor=sandbox)
    assert servers is not None
    server = servers.servers[0]
    try:
        await servers.wait_for_starting()
        await server.wait_started(time.monotonic() + 60)
        assert server.state == "ready", (server.reason, server.stderr_tail())
        assert server.toolset is not None
        said = await server.toolset.direct_call_tool("where", {})
    finally:
        await servers.close()
    left = bytearray()
    await sandbox.run(ExecRequest(["ps", "-eo", "args"], timeout=30, on_stdout=left.extend, on_stderr=left.extend))

    assert "ps -eo args" in left.decode()  # the list was read...
    assert "sh_server.sh" not in left.decode()  # ...and the server stopped inside, not just its docker client
    assert f"cwd={workspace}" in said
    assert "home=/tmp" in said
    assert f"host={socket.gethostname()} " not in said  # the container's name, not this machine's
    assert "secret=none" in said
