"""A language server that dies or hangs: restarted once, then reported; never waited on past the timeout."""

import asyncio
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic_ai import RunContext

from decode.entities.deps import AgentDeps
from decode.tools.edit import edit
from decode.tools.lsp import lsp
from decode.tools.read import read
from tests.conftest import gone
from tests.integration.lsp.conftest import manager_of

pytestmark = pytest.mark.integration
MakeCtx = Callable[..., RunContext[AgentDeps]]  # the `make_ctx` fixture (conftest.py)

# Answers `initialize`, then reads every request and never answers one: a server that hangs.
HANGS_AFTER_START = r"""
import json, sys
stdin = sys.stdin.buffer
while True:
    length = 0
    while (line := stdin.readline()) not in (b"\r\n", b""):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    if not line:
        break
    message = json.loads(stdin.read(length))
    if message.get("method") == "initialize":
        body = json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {"capabilities": {}}}).encode()
        sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        sys.stdout.buffer.flush()
"""
NEVER_STARTS = "import time\ntime.sleep(3600)\n"


def server_script(tmp_path: Path, source: str) -> list[str]:
    script = tmp_path / "server.py"
    script.write_text(source)
    return [sys.executable, str(script)]


async def test_a_killed_server_is_restarted_once_then_reported(ctx: RunContext[AgentDeps], project: Path) -> None:
    manager = manager_of(ctx)
    assert (await lsp(ctx, "symbols", "lib.py")).startswith("lib.py:")
    first = manager.pid_of(project / "lib.py")
    assert first is not None
    os.kill(first, signal.SIGKILL)
    assert await asyncio.to_thread(gone, first)  # polled off the event loop, which reaps it
    # The next request finds it dead, starts it again, and answers.
    assert (await lsp(ctx, "definition", "app.py", symbol="size")) == "lib.py:1:5: def size(text: str) -> int:"
    second = manager.pid_of(project / "lib.py")
    assert second is not None
    assert second != first
    os.kill(second, signal.SIGKILL)
    assert await asyncio.to_thread(gone, second)  # polled off the event loop, which reaps it
    answer = await lsp(ctx, "symbols", "lib.py")
    assert answer.startswith("The language server ty is off for this session: it failed twice")
    assert answer.endswith("Use read, grep and glob instead.")
    assert manager.pid_of(project / "lib.py") is None  # not started a third time
    # An edit still works, and says nothing about the server it no longer asks.
    await read(ctx, "app.py")
    assert await edit(ctx, "app.py", 'size("abc")', "size(3)") == "Edited app.py: replaced 1 occurrence at line 3."


async def test_a_hung_server_times_out_and_is_killed(make_ctx: MakeCtx, tmp_path: Path, project: Path) -> None:
    ctx = make_ctx(servers={".py": server_script(tmp_path, HANGS_AFTER_START)}, timeout=1.0)
    manager = manager_of(ctx)
    answer = await lsp(ctx, "hover", "app.py", line=1, character=1)
    assert answer == (
        "server.py did not answer within 1 s; it will be restarted on the next request. "
        "Use read, grep and glob instead."
    )
    assert manager.pid_of(project / "app.py") is None  # killed
    second = await lsp(ctx, "hover", "app.py", line=1, character=1)
    assert second.startswith("The language server server.py is off for this session: it failed twice")


async def test_a_server_that_never_starts_is_given_up(make_ctx: MakeCtx, tmp_path: Path) -> None:
    ctx = make_ctx(servers={".py": server_script(tmp_path, NEVER_STARTS)}, timeout=0.5)
    assert (
        await lsp(ctx, "symbols", "lib.py") == "server.py did not start within 0.5 s. Use read, grep and glob instead."
    )
    await lsp(ctx, "symbols", "lib.py")
    third = await lsp(ctx, "symbols", "lib.py")
    assert third.startswith("The language server server.py is off for this session: it did not start within 0.5 s")


async def test_a_hung_server_never_fails_an_edit(make_ctx: MakeCtx, tmp_path: Path, project: Path) -> None:
    ctx = make_ctx(servers={".py": server_script(tmp_path, HANGS_AFTER_START)}, edit_timeout=0.5)
    await read(ctx, "app.py")
    result = await edit(ctx, "app.py", 'size("abc")', "size(3)")
    assert result == (
        "Edited app.py: replaced 1 occurrence at line 3.\n(No diagnostics after this edit: server.py did not answer "
        "within 0.5 s.)"
    )
    assert "size(3)" in (project / "app.py").read_text()
    # Slow for the short deadline of an edit's check is not dead: the lsp tool still asks it.
    assert manager_of(ctx).handles(project / "app.py")


async def test_a_missing_server_program_is_reported(make_ctx: MakeCtx) -> None:
    ctx = make_ctx(servers={".py": ["no-such-language-server"]})
    answer = await lsp(ctx, "symbols", "lib.py")
    assert answer.startswith("The language server no-such-language-server is off for this session: it could not start")
    assert "not installed" in answer


async def test_closing_stops_the_servers(ctx: RunContext[AgentDeps], project: Path) -> None:
    manager = manager_of(ctx)
    await lsp(ctx, "symbols", "lib.py")
    pid = manager.pid_of(project / "lib.py")
    assert pid is not None
    await manager.close()
    assert await asyncio.to_thread(gone, pid)  # polled off the event loop, which reaps it
