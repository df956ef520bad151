"""Stdio MCP servers started through the executor seam (ADR-0067), against real servers: the lesson's
own, the published `mcp-server-time`, and a probe that reports where it runs."""

import json
import logging
import os
import signal
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

import decode.mcp.toolset  # noqa: F401  (pydantic-ai's MCP client, imported before any clock starts)
from decode.entities.executor import Process
from decode.mcp.config import ServerConfig, parse_server
from decode.mcp.server_log import LOG_DIR
from decode.mcp.servers import McpServer, McpServers, build_servers
from decode.processes import process_tree, tracking
from decode.processes.local import LocalExecutor
from tests.conftest import gone, until

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[3]
PROBE = Path(__file__).parent / "servers" / "probe_server.py"
LESSON = ROOT / "lessons" / "14-mcp"
TIME_SERVER = Path(sys.executable).parent / "mcp-server-time"


class Recording(LocalExecutor):
    """The local executor, noting each program it spawns (the proof a server came through the seam)."""

    def __init__(self, workspace: Path, env: Mapping[str, str]) -> None:
        super().__init__(workspace, env=env)
        self.spawned: list[tuple[list[str], Path | None]] = []

    async def spawn(
        self, argv: Sequence[str], *, cwd: Path | None = None, env: Mapping[str, str] | None = None
    ) -> Process:
        self.spawned.append((list(argv), cwd))
        return await super().spawn(argv, cwd=cwd, env=env)


def config(name: str, command: str, *args: str, home: Path, **entry: Any) -> ServerConfig:
    raw = {"command": command, "args": list(args), **entry}
    return ServerConfig(name, parse_server(name, raw, {}), home / ".mcp.json", "project", raw)  # type: ignore[arg-type]


@pytest.fixture
async def started(tmp_path: Path):
    """`started(configs, executor)`: the servers, started and waited for; closed when the test ends."""
    opened: list[McpServers] = []

    async def start(configs: list[ServerConfig], executor: Any = None) -> McpServers:
        environment = {"PATH": os.environ["PATH"]}
        servers = build_servers(configs, tmp_path, environment, trusted_project=True, executor=executor)
        opened.append(servers)
        await servers.wait_for_starting()
        for server in servers.servers:
            await server.wait_started(time.monotonic() + 60)
        return servers

    yield start
    for servers in opened:
        await servers.close()


async def call(server: McpServer, tool: str, args: dict[str, Any] | None = None) -> Any:
    assert server.state == "ready", (server.state, server.reason, server.stderr_tail())
    assert server.toolset is not None
    return await server.toolset.direct_call_tool(tool, args or {})


async def ends(pid: int) -> bool:
    """Is `pid` gone in time? Polled with the event loop running, which reaps decode's children."""
    return await until(lambda: gone(pid, 0))


async def where(server: McpServer) -> dict[str, Any]:
    return json.loads(await call(server, "where"))


@pytest.mark.parametrize(
    ("command", "tool", "args", "answer"),
    [
        ((str(TIME_SERVER), "--local-timezone", "UTC"), "convert_time", {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"}, "21:00"),  # noqa: E501
        ((sys.executable, str(LESSON / "tiny_server.py")), "shout", {"text": "hi"}, "HI!"),
        ((sys.executable, str(LESSON / "notes_server.py")), "add_note", {"text": "milk"}, "1 notes"),
    ],
    ids=["mcp-server-time", "tiny_server", "notes_server"],
)  # fmt: skip
async def test_real_servers_answer_through_the_executors_spawn(
    started, tmp_path: Path, command: tuple[str, ...], tool: str, args: dict, answer: str
) -> None:
    executor = Recording(tmp_path, {"PATH": os.environ["PATH"]})
    servers = await started([config("s", *command, home=tmp_path)], executor)

    result = await call(servers.servers[0], tool, args)

    assert answer in json.dumps(result)
    assert executor.spawned == [(list(command), tmp_path)]  # the project's server, in the project


async def test_without_an_executor_the_server_runs_on_this_machine_as_before(started, tmp_path: Path) -> None:
    servers = await started([config("probe", sys.executable, str(PROBE), home=tmp_path, env={"OWN": "mine"})])

    seen = await where(servers.servers[0])

    assert Path(seen["cwd"]) == tmp_path
    assert seen["env"]["OWN"] == "mine"  # its entry's env, over what decode's commands get
    assert seen["env"]["PATH"] == os.environ["PATH"]
    assert process_tree.TAG_VARIABLE in seen["env"]  # started by the executor's spawn: tracked like any command


async def test_a_line_far_longer_than_a_pipe_buffer_arrives_whole(started, tmp_path: Path) -> None:
    servers = await started([config("probe", sys.executable, str(PROBE), home=tmp_path)])

    assert await call(servers.servers[0], "big", {"size": 1_000_000}) == "y" * 1_000_000


async def test_the_servers_process_is_tracked_and_ends_with_the_servers(started, tmp_path: Path) -> None:
    servers = await started([config("probe", sys.executable, str(PROBE), home=tmp_path)])
    pid = (await where(servers.servers[0]))["pid"]
    assert pid in {tracked.leader for tracked in tracking._tracked.values()}

    await servers.close()

    assert await ends(pid)
    assert pid not in {tracked.leader for tracked in tracking._tracked.values()}


async def test_decode_exiting_ends_the_server(started, tmp_path: Path) -> None:
    servers = await started([config("probe", sys.executable, str(PROBE), home=tmp_path)])
    pid = (await where(servers.servers[0]))["pid"]

    tracking.end_all()  # what decode's exit (atexit, SIGTERM, SIGHUP) does

    assert await ends(pid)


async def test_a_server_killed_from_outside_is_reported_and_reconnected_once(
    started, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    servers = await started([config("probe", sys.executable, str(PROBE), home=tmp_path)])
    probe = servers.servers[0]
    first = (await where(probe))["pid"]

    os.kill(first, signal.SIGKILL)
    assert await ends(first)
    with caplog.at_level(logging.WARNING, logger="decode.mcp.servers"):
        try:
            await call(probe, "where")
        except Exception as exc:  # whatever the client raises for a closed connection
            await probe.crashed(exc)  # what McpTools.call_tool does with it
        else:
            pytest.fail("a call to a killed server answered")

    assert "MCP server probe failed: crashed" in caplog.text
    assert "reconnecting once" in caplog.text
    await probe.wait_started(time.monotonic() + 60)
    second = (await where(probe))["pid"]
    assert second != first


async def test_the_servers_stderr_goes_to_its_log_not_the_screen(
    started, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    servers = await started([config("probe", sys.executable, str(PROBE), home=tmp_path)])

    assert await call(servers.servers[0], "shout", {"text": "hello from the pipe"}) == "said"

    log = tmp_path / LOG_DIR / "probe.log"
    await until(lambda: "hello from the pipe" in log.read_text())  # copied from the pipe as it comes
    assert "probe server: started" in log.read_text()
    assert "probe server says: hello from the pipe" in log.read_text()
    assert "probe server" not in capfd.readouterr().err


async def test_a_line_past_the_limit_ends_the_connection_like_a_crash(
    started, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import decode.mcp.transport

    monkeypatch.setattr(decode.mcp.transport, "MAX_LINE_BYTES", 100_000)  # a server flooding decode's memory
    servers = await started([config("probe", sys.executable, str(PROBE), home=tmp_path)])
    probe = servers.servers[0]

    with pytest.raises(Exception, match=r"(?i)clos") as ended:  # the client's word for a connection that ended
        await call(probe, "big", {"size": 1_000_000})
    await probe.crashed(ended.value)  # what McpTools.call_tool does: reported, reconnected once

    await probe.wait_started(time.monotonic() + 60)
    assert await call(probe, "big", {"size": 10}) == "y" * 10


async def test_a_server_flooding_stderr_fills_its_log_only_up_to_the_limit(
    started, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import decode.mcp.transport

    monkeypatch.setattr(decode.mcp.transport, "LOG_LIMIT_BYTES", 50_000)
    servers = await started([config("probe", sys.executable, str(PROBE), home=tmp_path)])
    probe = servers.servers[0]

    assert await call(probe, "spew", {"size": 1_000_000}) == "spewed"
    assert await call(probe, "big", {"size": 5}) == "yyyyy"  # still answering: its stderr is still read
    await servers.close()

    log = (tmp_path / LOG_DIR / "probe.log").read_text()
    assert "the rest is left out" in log
    assert len(log) < 60_000
