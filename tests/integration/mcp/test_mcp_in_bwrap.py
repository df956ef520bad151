"""A stdio MCP server under `--sandbox bwrap` (ADR-0067): it starts inside the sandbox, through the
executor, with the sandbox's environment. A probe server tries what a hostile one would."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import decode.mcp.toolset  # noqa: F401  (pydantic-ai's MCP client, imported before any clock starts)
from decode.config.settings import Settings
from decode.mcp.loading import load_servers
from decode.mcp.server_log import LOG_DIR
from decode.mcp.servers import McpServer, McpServers
from decode.sandbox.backends import open_sandbox
from decode.sandbox.executor import SandboxExecutor
from decode.sandbox.types import SandboxError, SandboxMode
from tests.conftest import own_settings

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (apt install bubblewrap)"),
]

PROBE = Path(__file__).parent / "servers" / "probe_server.py"
SECRET = "sk-host-secret-0123456789abcdef"


def inside(folder: Path) -> Path:
    """The probe's script copied into `folder`: this checkout may be under /tmp, which the sandbox hides."""
    copy = folder / PROBE.name
    shutil.copy(PROBE, copy)
    return copy


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root.resolve()


@pytest.fixture
async def sandbox(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[SandboxExecutor]:
    for name in ("GEMINI_API_KEY", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "MY_SERVICE_TOKEN"):
        monkeypatch.setenv(name, SECRET)
    try:
        executor = open_sandbox(SandboxMode.BWRAP, workspace, Settings(_env_file=None))  # type: ignore[call-arg]
    except SandboxError as exc:
        pytest.skip(f"bubblewrap cannot run here: {exc}")
    await executor.start()
    yield executor
    await executor.close()


async def probe_in(sandbox: SandboxExecutor, workspace: Path, tmp_path: Path, **entry: Any) -> McpServers:
    """The probe, configured in the Workspace's `.mcp.json` and loaded as `build_loop` loads it."""
    raw = {"command": sys.executable, "args": [str(inside(workspace))], **entry}
    (workspace / ".mcp.json").write_text(json.dumps({"mcpServers": {"probe": raw}}))
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    servers = load_servers(workspace, settings, trust_project=True, user_home=tmp_path / "user", executor=sandbox)
    assert servers is not None
    await servers.wait_for_starting()
    await servers.servers[0].wait_started(time.monotonic() + 60)
    return servers


async def call(server: McpServer, tool: str, args: dict[str, Any] | None = None) -> Any:
    assert server.state == "ready", (server.state, server.reason, server.stderr_tail())
    assert server.toolset is not None
    return await server.toolset.direct_call_tool(tool, args or {})


async def test_a_server_in_bwrap_writes_only_its_workspace(
    sandbox: SandboxExecutor, workspace: Path, tmp_path: Path
) -> None:
    servers = await probe_in(sandbox, workspace, tmp_path)
    probe = servers.servers[0]
    host = Path(tempfile.mkdtemp(prefix="decode-mcp-", dir="/var/tmp"))  # writable here, outside /tmp
    try:
        inside = await call(probe, "write", {"path": str(workspace / "made.txt"), "text": "ok"})
        escaped = await call(probe, "write", {"path": str(host / "escaped.txt"), "text": "escaped"})
        in_tmp = await call(probe, "write", {"path": str(tmp_path / "in-tmp.txt"), "text": "private"})
        protected = await call(probe, "write", {"path": str(workspace / ".mcp.json"), "text": "{}"})
        hooks = await call(probe, "write", {"path": str(workspace / ".git" / "hooks" / "post-commit"), "text": "x"})
        assert not (host / "escaped.txt").exists()
    finally:
        await servers.close()
        shutil.rmtree(host)

    assert inside == "written"
    assert (workspace / "made.txt").read_text() == "ok"
    assert escaped.startswith("refused: [Errno 30] Read-only file system")
    assert in_tmp == "written"  # into the sandbox's own /tmp...
    assert not (tmp_path / "in-tmp.txt").exists()  # ...which is not this machine's
    assert protected.startswith("refused")
    assert "probe" in (workspace / ".mcp.json").read_text()
    assert hooks.startswith("refused")
    assert not (workspace / ".git" / "hooks" / "post-commit").exists()


async def test_a_server_in_bwrap_has_the_sandboxs_environment_and_its_own_env_only(
    sandbox: SandboxExecutor, workspace: Path, tmp_path: Path
) -> None:
    servers = await probe_in(sandbox, workspace, tmp_path, env={"OWN": "mine"})
    try:
        seen = json.loads(await call(servers.servers[0], "where"))
    finally:
        await servers.close()

    env = seen["env"]
    assert SECRET not in json.dumps(env)  # no host secret, under any name
    assert env["OWN"] == "mine"  # what its entry hands it
    assert env["HOME"] == "/tmp"  # the sandbox's environment, not decode's
    assert seen["pid"] < 10  # its own pid namespace: it runs inside
    assert Path(seen["cwd"]) == workspace
    assert "probe server: started" in (workspace / LOG_DIR / "probe.log").read_text()  # stderr: host-side log


async def test_a_user_server_whose_folder_the_sandbox_may_not_see_runs_in_the_workspace(
    sandbox: SandboxExecutor, workspace: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    servers = await probe_in(sandbox, workspace, tmp_path, cwd=str(elsewhere))
    try:
        seen = json.loads(await call(servers.servers[0], "where"))
    finally:
        await servers.close()

    assert Path(seen["cwd"]) == workspace


def test_decode_run_in_bwrap_starts_the_projects_server_inside(project: Path, tmp_path: Path) -> None:
    # The whole path: `decode run --sandbox bwrap` → build_loop → load_servers(executor=the sandbox's).
    (project / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"probe": {"command": sys.executable, "args": [str(inside(project))]}}})
    )
    (project / ".decode").mkdir()
    own_settings(project / ".decode" / "settings.local.json", json.dumps({"permissions": {"allow": ["mcp__probe"]}}))
    script = tmp_path / "script.json"
    script.write_text(json.dumps([{"tool_calls": [{"name": "mcp__probe__where", "args": {}}]}, {"text": "done"}]))
    decode = Path(sys.executable).parent / "decode"
    argv = [str(decode), "run", "--sandbox", "bwrap", "--trust-project-mcp", "-m", f"script:{script}", "where?"]
    env = {**os.environ, "GEMINI_API_KEY": SECRET}

    done = subprocess.run(argv, cwd=project, capture_output=True, text=True, timeout=120, env=env)

    assert done.returncode == 0, done.stderr
    assert "✓ mcp__probe__where()" in done.stderr
    sent = "".join(path.read_text() for path in (project / ".decode" / "sessions").glob("*.jsonl"))
    assert '\\"HOME\\": \\"/tmp\\"' in sent  # what went back to the model: the server ran inside
    assert SECRET not in sent
