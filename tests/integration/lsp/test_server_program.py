"""A language server named by name runs from the user's PATH, never from decode's own venv (ADR-0095)."""

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic_ai import RunContext

from decode.entities.deps import AgentDeps
from decode.tools.lsp import lsp

pytestmark = pytest.mark.integration
MakeCtx = Callable[..., RunContext[AgentDeps]]  # the `make_ctx` fixture (conftest.py)

# The user's own `pylsp`: notes that it ran, answers `initialize`, then never answers again.
FAKE_PYLSP = r"""#!{python}
import json, pathlib, sys
pathlib.Path({marker!r}).write_text("the user's pylsp ran\n")
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
        body = json.dumps({{"jsonrpc": "2.0", "id": message["id"], "result": {{"capabilities": {{}}}}}}).encode()
        sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        sys.stdout.buffer.flush()
"""


async def test_a_server_named_by_name_is_the_one_on_the_users_path(
    make_ctx: MakeCtx, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert (Path(sys.executable).parent / "pylsp").exists(), "decode's venv has a pylsp (the dev group)"
    user_bin, marker = tmp_path / "user-bin", tmp_path / "ran.txt"
    user_bin.mkdir()
    program = user_bin / "pylsp"
    program.write_text(FAKE_PYLSP.format(python=sys.executable, marker=str(marker)))
    program.chmod(0o755)
    monkeypatch.setenv("PATH", f"{user_bin}:/usr/bin:/bin")  # commands and servers inherit it
    ctx = make_ctx(servers={".py": ["pylsp"]}, timeout=2.0)

    await lsp(ctx, "hover", "app.py", line=1, character=1)  # it never answers: the answer is a timeout

    assert marker.read_text() == "the user's pylsp ran\n"
