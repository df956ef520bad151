"""`decode run` makes no garbage collection on its way to the first model request, and collects after.

The real entry point runs in its own process, against an OpenAI-compatible server on 127.0.0.1 that
notes when the request arrives (`time.monotonic()`, one clock for every process of the machine).
The process notes when its import of pydantic-ai began (Python's audit event for an import; the
bulk of start-up follows it) and when each collection started (`gc.callbacks`), and whether the
collector is on at exit.
"""

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from tests.integration.providers.fake_servers import OpenAIServer, Turn

pytestmark = pytest.mark.integration

OBSERVED_RUN = """
import atexit, gc, json, sys, time

record, path = {"started": None, "collections": []}, sys.argv[1]

def on_audit(event, args):
    if event == "import" and args[0] == "pydantic_ai" and record["started"] is None:
        record["started"] = time.monotonic()

def on_collection(phase, info):
    if phase == "start" and record["started"] is not None:
        record["collections"].append(time.monotonic())

sys.addaudithook(on_audit)
gc.callbacks.append(on_collection)
atexit.register(lambda: json.dump({**record, "on": gc.isenabled()}, open(path, "w")))
sys.argv = ["decode", "run", "--model", "openai-compatible:bench", "say hello"]
from decode.cli import cli

cli()
"""


class _Clocked(OpenAIServer):
    """The fake provider, noting when the first request arrived."""

    arrived: float | None = None

    def handle(self, handler: Any) -> None:
        if self.arrived is None:
            self.arrived = time.monotonic()
        super().handle(handler)


def test_no_collection_runs_from_the_agent_librarys_import_to_the_first_request(tmp_path: Path) -> None:
    server = _Clocked()
    server.plan(Turn(text="Hello."))
    observed = tmp_path / "observed.json"
    try:
        done = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(OBSERVED_RUN), str(observed)],
            cwd=tmp_path,
            env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "OPENAI_BASE_URL": f"{server.url}/v1",
                 "OPENAI_API_KEY": "x"},
            capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120,
        )  # fmt: skip
    finally:
        server.close()

    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == "Hello.\n"
    found = json.loads(observed.read_text())
    assert server.arrived is not None
    assert found["started"] is not None
    assert found["started"] < server.arrived
    before = [at for at in found["collections"] if at < server.arrived]
    assert before == [], f"{len(before)} collections on the way to the first request"
    assert found["on"]  # collections are back once the answer began
