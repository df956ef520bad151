"""MCP servers: they must cost the prompt nothing, and a hundred tools must not fill every request.

- Time to prompt, a REPL with three slow MCP servers (each takes 3 s before it answers) against one
  with none, in a real terminal (tmux, as `bench_repl.py`): the servers start in the background, so
  the difference should be noise (limit 0.15 s). Time to warm (`● ready`) is shown beside it: the
  footer does not wait for the servers either (limit: 1 s more, for importing the MCP client).
- The first request of `decode run` with a server of 100 tools, to an OpenAI-compatible model server
  on 127.0.0.1 that records it: the characters of its instructions and tool schemas. Tool Search
  (ADR-0056) sends `search_tools` instead of the hundred schemas: limit 20,000 characters, the
  fixed-context budget. The same request's size with the tools sent whole is in the note.
- Time to the first tool answer of a stdio server (start, initialize, list, one call), in process:
  through the executor's `spawn` (ADR-0067) against fastmcp's own `StdioTransport` (lesson 14's way):
  limit 0.1 s more; and inside bubblewrap against no sandbox, where bwrap runs: limit 0.3 s more.
"""

import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

from perf import Context, Figure

RUNS = 5
POLL_S = 0.005
TIMEOUT_S = 60.0


def _start_times(decode: Path, script: Path, cwd: Path, home: Path) -> tuple[float, float]:
    socket = f"decode-bench-{uuid.uuid4().hex[:8]}"
    tmux = ["tmux", "-L", socket]
    started = time.perf_counter()
    command = f"HOME={home} {decode} --model script:{script}"
    subprocess.run([*tmux, "new-session", "-d", "-x", "120", "-y", "30", "-c", str(cwd), command], check=True)
    prompt, screen = None, ""
    try:
        while time.perf_counter() - started < TIMEOUT_S:
            screen = subprocess.run([*tmux, "capture-pane", "-p"], capture_output=True, text=True).stdout
            now = time.perf_counter() - started
            if prompt is None and "❯" in screen:
                prompt = now
            if "● ready" in screen:
                return prompt or now, now
            time.sleep(POLL_S)
        raise RuntimeError(f"decode did not start within {TIMEOUT_S:g} s; the terminal shows:\n{screen}")
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
        _wait_gone(str(script))


def _wait_gone(marker: str) -> None:
    """Wait until no process of this start is left (decode closing its servers), so runs do not overlap."""
    deadline = time.perf_counter() + TIMEOUT_S
    while time.perf_counter() < deadline:
        if subprocess.run(["pgrep", "-f", marker], capture_output=True).returncode != 0:
            return
        time.sleep(0.05)


def _user_servers(home: Path, servers: dict) -> None:
    (home / ".decode").mkdir(parents=True, exist_ok=True)
    (home / ".decode" / "mcp.json").write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")


def _prompt_figures(ctx: Context) -> Iterator[Figure]:
    if shutil.which("tmux") is None:
        print("  (tmux is not installed: skipped)")
        return
    script = ctx.tmp / "hello.json"
    script.write_text(json.dumps([{"text": "Hello."}]), encoding="utf-8")
    echo = ctx.root / "tests" / "integration" / "mcp" / "servers" / "echo_server.py"
    slow = {"command": "sh", "args": ["-c", f"sleep 3; exec {sys.executable} {echo}"], "startup_timeout_sec": 30}
    none, three = ctx.tmp / "home-none", ctx.tmp / "home-three"
    none.mkdir()
    _user_servers(three, {f"slow{i}": slow for i in range(3)})
    decode = ctx.bin("decode")
    for _ in range(ctx.warmup):
        _start_times(decode, script, ctx.tmp, none)
        _start_times(decode, script, ctx.tmp, three)
    plain, served = [], []
    for _ in range(RUNS):
        plain.append(_start_times(decode, script, ctx.tmp, none))
        served.append(_start_times(decode, script, ctx.tmp, three))
    prompt = statistics.median(p for p, _ in served) - statistics.median(p for p, _ in plain)
    warm = statistics.median(w for _, w in served) - statistics.median(w for _, w in plain)
    base = statistics.median(p for p, _ in plain)
    note = f"median of {RUNS}; with no server the prompt shows at {base:.2f} s"
    yield Figure("REPL time to prompt: 3 slow MCP servers minus none", prompt, "s", limit=0.15, note=note)
    yield Figure("REPL time to warm: 3 slow MCP servers minus none", warm, "s", limit=1.0, note=f"median of {RUNS}")


def _request_size(ctx: Context) -> tuple[int, int, int]:
    """Characters of the first request's instructions and tool schemas, the tools it offered, and the
    characters the hundred MCP tools would have taken, sent whole (OpenAI's tool format)."""
    sys.path.insert(0, str(ctx.root))
    from tests.integration.providers.fake_servers import OpenAIServer, Turn

    home, project = ctx.tmp / "home-many", ctx.tmp / "project-many"
    project.mkdir()
    many = ctx.root / "tests" / "integration" / "mcp" / "servers" / "many_tools_server.py"
    _user_servers(home, {"many": {"command": sys.executable, "args": [str(many)]}})
    server = OpenAIServer()
    server.plan(Turn(text="Done."))
    env = {**os.environ, "HOME": str(home), "OPENAI_BASE_URL": f"{server.url}/v1", "OPENAI_API_KEY": "bench"}
    try:
        done = subprocess.run(
            [str(ctx.bin("decode")), "run", "--model", "openai-compatible:bench", "hi"],
            cwd=project, env=env, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"decode run failed: {done.stderr}")
        body = server.requests[0].json()
    finally:
        server.close()
    instructions = sum(len(json.dumps(m.get("content", ""))) for m in body["messages"] if m["role"] == "system")
    tools = body.get("tools", [])
    return instructions + len(json.dumps(tools)), len(tools), _whole_size(many, project)


def _whole_size(many: Path, project: Path) -> int:
    import asyncio

    from decode.mcp.config import ServerConfig, parse_server
    from decode.mcp.servers import build_servers
    from decode.mcp.toolset import definition

    raw = {"command": sys.executable, "args": [str(many)]}
    servers = build_servers(
        [ServerConfig("many", parse_server("many", raw, {}), many, "user", raw)], project, {}, trusted_project=True
    )

    async def listed() -> int:
        try:
            await servers.wait_for_starting()
            defs = [definition(f"mcp__many__{tool.name}", tool) for tool in servers.servers[0].tools]
        finally:
            await servers.close()
        wire = [{"type": "function", "function": {"name": d.name, "description": d.description,
                 "parameters": d.parameters_json_schema}} for d in defs]  # fmt: skip
        return len(json.dumps(wire))

    return asyncio.run(listed())


def _first_tool_times(ctx: Context) -> dict[str, list[float]]:
    """Seconds from nothing to the first answer of `add`, per way of starting the echo server."""
    import asyncio

    from pydantic_ai.mcp import MCPToolset

    from decode.config.settings import Settings
    from decode.mcp.config import ServerConfig, parse_server
    from decode.mcp.servers import build_servers

    echo = ctx.root / "tests" / "integration" / "mcp" / "servers" / "echo_server.py"
    raw = {"command": sys.executable, "args": [str(echo)]}
    config = ServerConfig("echo", parse_server("echo", raw, {}), ctx.tmp / ".mcp.json", "user", raw)
    environment = {"PATH": os.environ["PATH"]}
    project = ctx.tmp / "project-first-tool"
    project.mkdir(exist_ok=True)

    async def through_executor(executor: object | None) -> float:
        started = time.perf_counter()
        servers = build_servers([config], project, environment, trusted_project=True, executor=executor)  # type: ignore[arg-type]
        try:
            await servers.wait_for_starting()
            toolset = servers.servers[0].toolset
            assert toolset is not None, servers.servers[0].reason
            await toolset.direct_call_tool("add", {"a": 1, "b": 2})
            return time.perf_counter() - started
        finally:
            await servers.close()

    async def through_fastmcp() -> float:
        from fastmcp.client.transports import StdioTransport

        started = time.perf_counter()
        log = ctx.tmp / "fastmcp-echo.log"  # its stderr, as decode's transport sends it to a log
        transport = StdioTransport(
            sys.executable, [str(echo)], env=environment, cwd=str(project), keep_alive=False, log_file=log
        )
        async with MCPToolset(transport, id="echo") as toolset:
            await toolset.list_tools()
            await toolset.direct_call_tool("add", {"a": 1, "b": 2})
            return time.perf_counter() - started  # before the shutdown, as for the executor's

    async def measure() -> dict[str, list[float]]:
        ways: dict[str, object] = {"fastmcp": None, "executor": None}
        try:
            from decode.sandbox.backends import open_sandbox
            from decode.sandbox.types import SandboxError, SandboxMode

            sandbox = open_sandbox(SandboxMode.BWRAP, project, Settings(_env_file=None))  # type: ignore[call-arg]
            await sandbox.start()
            ways["bwrap"] = sandbox
        except (ImportError, SandboxError) as exc:
            print(f"  (bwrap cannot run here, {exc}: its figure is skipped)")
        times: dict[str, list[float]] = {way: [] for way in ways}
        for run in range(ctx.warmup + RUNS):
            for way, executor in ways.items():
                took = await (through_fastmcp() if way == "fastmcp" else through_executor(executor))
                if run >= ctx.warmup:
                    times[way].append(took)
        if (sandbox := ways.get("bwrap")) is not None:
            await sandbox.close()  # type: ignore[attr-defined]
        return times

    return asyncio.run(measure())


def _first_tool_figures(ctx: Context) -> Iterator[Figure]:
    times = {way: statistics.median(runs) for way, runs in _first_tool_times(ctx).items()}
    note = f"median of {RUNS}: executor {times['executor']:.3f} s, fastmcp's StdioTransport {times['fastmcp']:.3f} s"
    yield Figure("first MCP tool answer: executor's spawn minus fastmcp's", times["executor"] - times["fastmcp"],
                 "s", limit=0.1, note=note)  # fmt: skip
    if "bwrap" in times:
        note = f"median of {RUNS}: bwrap {times['bwrap']:.3f} s, none {times['executor']:.3f} s"
        yield Figure("first MCP tool answer: bwrap minus none", times["bwrap"] - times["executor"], "s", limit=0.3,
                     note=note)  # fmt: skip


def benchmarks(ctx: Context) -> Iterator[Figure]:
    yield from _first_tool_figures(ctx)
    yield from _prompt_figures(ctx)
    size, offered, whole = _request_size(ctx)
    note = f"{offered} tools offered, `search_tools` among them; the 100 MCP schemas alone, sent whole: {whole:,} chars"
    yield Figure("first request with 100 MCP tools (instructions + schemas)", size, "chars", limit=20_000, note=note)
