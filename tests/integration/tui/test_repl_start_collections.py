"""The REPL makes no garbage collection while the agent loads, and collects again once it is ready.

The real entry point runs in a real terminal (tmux) against a loopback OpenAI-compatible server. The
process notes whether the collector was on when its import of pydantic-ai began (Python's audit
event for an import) and whether it is on when the process exits (after a turn and `/quit`).
"""

import json
import shlex
import sys
import textwrap
from pathlib import Path

import pytest

from tests.integration.conftest import Terminal
from tests.integration.providers.conftest import SECRET
from tests.integration.providers.fake_servers import OpenAIServer, Turn

pytestmark = pytest.mark.integration

OBSERVED_REPL = """
import atexit, gc, json, sys

record, path = {"on_at_import": None}, sys.argv[1]

def on_audit(event, args):
    if event == "import" and args[0] == "pydantic_ai" and record["on_at_import"] is None:
        record["on_at_import"] = gc.isenabled()

sys.addaudithook(on_audit)
atexit.register(lambda: json.dump({**record, "on": gc.isenabled()}, open(path, "w")))
sys.argv = ["decode", "--model", "openai-compatible:local-coder"]
from decode.cli import cli

cli()
"""


def test_the_repl_loads_its_agent_without_collections_and_collects_once_ready(
    terminal: Terminal, project: Path, tmp_path: Path
) -> None:
    server = OpenAIServer()
    server.plan(Turn(text="Hello from the loopback server."))
    script, observed = tmp_path / "observed_repl.py", tmp_path / "observed.json"
    script.write_text(textwrap.dedent(OBSERVED_REPL))
    variables = f"OPENAI_BASE_URL={server.url}/v1 OPENAI_API_KEY={SECRET}"
    command = f"{shlex.quote(sys.executable)} {shlex.quote(str(script))} {shlex.quote(str(observed))}"
    try:
        terminal.start(f"env {variables} {command}; echo decode-exited-$?; sleep 60", project)
        terminal.wait_for_text("● ready")
        terminal.submit("hi")
        terminal.wait_for_text("Hello from the loopback server.")
        terminal.submit("/quit")
        terminal.wait_for_text("decode-exited-0")
    finally:
        server.close()

    found = json.loads(observed.read_text())
    assert found["on_at_import"] is False  # the agent library loads with the collector off
    assert found["on"] is True  # and it is back on once the agent is ready
