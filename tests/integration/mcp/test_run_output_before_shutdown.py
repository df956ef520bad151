"""`decode run` with MCP servers: the answer and the result are out before any server is stopped.

A reader of the output (a script, a CI step, a harness) has what it waits for at once; stopping
the servers (stdin closed, then SIGTERM, then kill: up to a few seconds for a slow one) comes after.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.conftest import DECODE

pytestmark = pytest.mark.integration

SERVERS = Path(__file__).parent / "servers"


def test_the_result_is_out_before_the_servers_are_stopped(tmp_path: Path) -> None:
    project, output = tmp_path / "project", tmp_path / "stdout.jsonl"
    project.mkdir()
    markers = [tmp_path / f"server-{index}.marker" for index in range(3)]
    servers = {
        f"watch{index}": {
            "command": sys.executable,
            "args": [str(SERVERS / "output_watching_server.py")],
            "env": {"WATCHED_OUTPUT": str(output), "WATCH_MARKER": str(marker)},
        }
        for index, marker in enumerate(markers)
    }
    home = Path(os.environ["HOME"])  # this test's empty folder (tests/conftest.py)
    (home / ".decode").mkdir(exist_ok=True)
    (home / ".decode" / "mcp.json").write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    script = tmp_path / "script.json"
    script.write_text(json.dumps([{"text": "done"}]), encoding="utf-8")

    with output.open("w", encoding="utf-8") as stdout:
        done = subprocess.run(
            [DECODE, "run", "--model", f"script:{script}", "--output-format", "stream-json", "hi"],
            cwd=project, stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=120,
        )  # fmt: skip

    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in output.read_text(encoding="utf-8").splitlines()]
    assert events[-1]["type"] == "result"
    assert [server["status"] for server in events[0]["mcp_servers"]] == ["ready"] * 3, events[0]
    for marker in markers:
        assert marker.read_text(encoding="utf-8") == "result out\n"
