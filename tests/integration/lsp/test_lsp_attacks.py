"""Lesson 16 attacked: a hostile language server, a hostile project configuration, leaks past the rules.

A hole that is fixed has a plain test; one that is not yet is `xfail(strict=True)` with the reason,
so it is on record, CI stays green, and the day it is fixed the test says so.
"""

import sys
from pathlib import Path

import pytest

from decode.lsp.jsonrpc import Connection, ConnectionClosed
from decode.processes.spawn import spawn_process
from decode.tools.lsp import lsp
from decode.tools.paths import Refusal
from tests.integration.lsp.conftest import MakeCtx

pytestmark = pytest.mark.integration

# Reads one request, then writes `REPLY` (raw bytes) and waits for decode to give up on it.
HOSTILE = r"""
import sys, time
stdin, out = sys.stdin.buffer, sys.stdout.buffer
while (line := stdin.readline()) not in (b"\r\n", b""):
    if line.lower().startswith(b"content-length:"):
        length = int(line.split(b":")[1])
stdin.read(length)
out.write(REPLY)
out.flush()
time.sleep(60)
"""


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


@pytest.mark.parametrize(
    "reply",
    [
        frame(b'{"jsonrpc": "2.0", "id": 1, "error": "not an object"}'),
        frame(b'{"jsonrpc": "2.0", "id": [1], "result": null}'),
        frame(b'{"jsonrpc": "2.0", "id": 1, "error": {"code": "x", "message": "m"}}'),
        b"X" * 200_000,  # a "header line" longer than the stream reader's line limit, no newline
    ],
    ids=["error-not-an-object", "id-unhashable", "code-not-a-number", "endless-header-line"],
)
async def test_a_server_breaking_the_protocol_closes_the_connection_at_once(tmp_path: Path, reply: bytes) -> None:
    script = tmp_path / "server.py"
    script.write_text(f"REPLY = {reply!r}\n{HOSTILE}")
    process = await spawn_process([sys.executable, str(script)], cwd=tmp_path, env={})
    connection = Connection(process)
    connection.start()
    try:
        # Not a wait until the timeout: the reader noticed and failed the pending request.
        with pytest.raises(ConnectionClosed, match="broke the protocol"):
            await connection.request("initialize", {}, timeout=60)
        assert connection.closed
    finally:
        await connection.close()


async def test_a_projects_ty_toml_cannot_make_ty_run_a_program(project: Path, make_ctx: MakeCtx) -> None:
    marker = project.parent / "ran"
    (project / "evilpy").write_text(f"#!/bin/sh\ntouch {marker}\necho Python 3.12.0\n")
    (project / "evilpy").chmod(0o755)
    (project / "ty.toml").write_text('[environment]\npython = "./evilpy"\n')
    (project / "pyproject.toml").write_text('[tool.ty.environment]\npython = "./evilpy"\n')
    answer = await lsp(make_ctx(), "diagnostics", "app.py")
    assert answer.startswith("app.py")  # the server answered
    assert not marker.exists()


@pytest.mark.xfail(strict=True, reason="not fixed: a diagnostic's type names a hidden file's literal (task 054)")
async def test_diagnostics_do_not_reveal_a_value_from_a_file_the_rules_hide(project: Path, make_ctx: MakeCtx) -> None:
    (project / "secret_key.py").write_text('KEY = "hunter2"\n')
    (project / "app.py").write_text("from secret_key import KEY\nreveal_type(KEY)\ncount: int = KEY\n")
    answer = await lsp(make_ctx(), "diagnostics", "app.py")
    assert "hunter2" not in answer


@pytest.mark.xfail(strict=True, reason="not fixed: hover shows literals defined outside the Workspace (task 054)")
async def test_hover_does_not_reveal_a_value_from_outside_the_workspace(project: Path, make_ctx: MakeCtx) -> None:
    outside = project.parent / "outside"
    outside.mkdir()
    (outside / "creds.py").write_text('TOKEN = "outside-secret"\n')
    (project / "ty.toml").write_text(
        f'[environment]\nextra-paths = ["{outside}"]\n'
    )  # a project (or the model) writes it
    (project / "app.py").write_text("from creds import TOKEN\nprint(TOKEN)\n")
    try:
        answer = await lsp(make_ctx(), "hover", "app.py", symbol="TOKEN")
    except Refusal:
        return
    assert "outside-secret" not in answer
