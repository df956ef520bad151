"""Shell snippets written for `claude -p` and `codex exec`, run by bash with `decode` in their place.

Each snippet is a real `bash -c` with real pipes, `jq` and files; `decode` on its PATH is a small
shim that hands the shim's own stdin, stdout and stderr to the test session's fork server
(tests/integration/forkserver.py), so each `decode` is a real process (its own descriptors, its
exit code the snippet's `$?`) without paying for the imports again. The model is the Scripted
Model, named by `DECODE_MODEL` as a CI job's environment would name a real one.
"""

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.integration.forkserver import DECODE, ENABLED, shared
from tests.integration.providers.fake_servers import OpenAIServer

ROOT = Path(__file__).parents[3]
SHIM = f"""#!{sys.executable} -P
# `decode`, run by the test session's fork server with this process's own standard streams.
import os, socket, sys
sys.path.insert(0, {str(ROOT)!r})
from tests.forking import send
with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
    conn.connect(os.environ["DECODE_TESTS_SOCKET"])
    send(conn, {{"argv": [{DECODE!r}, *sys.argv[1:]], "cwd": os.getcwd(), "env": dict(os.environ)}}, [0, 1, 2])
    reader = conn.makefile("r")
    reader.readline()  # the child's pid
    sys.exit(int(reader.readline() or 1))
"""

Snippet = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture
def openai_server() -> Iterator[OpenAIServer]:
    """A model on a loopback HTTP server speaking OpenAI's chat completions (`openai-compatible:`)."""
    server = OpenAIServer()
    yield server
    server.close()


@pytest.fixture
def snippet(tmp_path: Path) -> Snippet:
    """`snippet(text, cwd=…, model=…, stdin=…)`: `bash -c text` with `decode` on PATH, `DECODE_MODEL=model`."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    server = shared() if ENABLED else None
    env = dict(os.environ)
    if server is not None and server.serves([DECODE], env):
        (bin_dir / "decode").write_text(SHIM)
        (bin_dir / "decode").chmod(0o755)
        env["DECODE_TESTS_SOCKET"] = server.path
    else:
        (bin_dir / "decode").symlink_to(DECODE)
    env["PATH"] = f"{bin_dir}:{env['PATH']}"
    assert shutil.which("jq", path=env["PATH"]), "the snippets need jq"

    def run(text: str, *, cwd: Path, model: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", "-c", "set -euo pipefail\n" + text],
            cwd=cwd,
            env={**env, "DECODE_MODEL": model},
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
        )

    return run
