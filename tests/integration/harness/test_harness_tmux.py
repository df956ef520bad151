"""The harness in a real terminal: Esc stops a running `sleep`, a steer reaches a slow model (a loopback
server that holds its answer until the test has typed the steer)."""

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import has_pid
from tests.integration.conftest import Terminal
from tests.integration.providers.fake_servers import Hold, OpenAIServer, Turn

pytestmark = pytest.mark.integration


def running_members(pgid: str) -> list[str]:
    """Processes of group `pgid` still running (a killed one not yet reaped by PID 1 is a zombie: gone)."""
    listed = subprocess.run(["ps", "-eo", "pgid=,stat=,args="], capture_output=True, text=True, check=True).stdout
    rows = [line.split(None, 2) for line in listed.splitlines()]
    return [row[2] for row in rows if len(row) == 3 and row[0] == pgid and not row[1].startswith("Z")]


def test_esc_stops_a_sleeping_bash_command_and_the_next_prompt_works(
    terminal: Terminal, project: Path, decode: str
) -> None:
    script = project / "turns.json"
    command = "echo $$ > group.pid; sleep 300 & sleep 300"
    script.write_text(
        json.dumps(
            [
                {"text": "Starting the server.", "tool_calls": [{"name": "bash", "args": {"command": command}}]},
                {"text": "Fresh start, as you asked."},
            ]
        )
    )
    terminal.start(
        f"{decode} --permission-mode bypass --model script:{script}; echo decode-exited-$?; sleep 60", project
    )
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")
    terminal.submit("start the server")
    terminal.wait_for(lambda _: has_pid(project / "group.pid"), "the pid file")
    pgid = (project / "group.pid").read_text().strip()
    assert len(running_members(pgid)) == 3  # bash and two sleeps
    terminal.wait_for_text("sleep 300 & sleep 300) ·")  # the running tool, in the live area

    terminal.keys("Escape")
    screen = terminal.wait_for_text("interrupted")

    terminal.wait_for(lambda _: running_members(pgid) == [], "the end of the process group")
    assert "✗ bash(echo $$ > group.pid; sleep 300 & sleep 300) · stopped" in screen
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer after the abort")

    terminal.submit("what happened?")
    terminal.wait_for_text("Fresh start, as you asked.")
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")
    session = next((project / ".decode" / "sessions").glob("*.jsonl")).read_text()
    assert "Interrupted by the user" in session  # the aborted turn is in the session log, closed


@pytest.fixture
def slow_model() -> Iterator[OpenAIServer]:
    """A real model server on 127.0.0.1; a `Hold` answer thinks until the test calls `release()`."""
    server = OpenAIServer()
    yield server
    server.close()


def test_a_message_typed_while_a_slow_model_thinks_steers_it(
    terminal: Terminal, project: Path, decode: str, slow_model: OpenAIServer
) -> None:
    slow_model.plan(Hold(Turn(text="Here is the plan.")), Turn(text="Switched to pnpm."))
    model = f"OPENAI_BASE_URL={slow_model.url}/v1 {decode} --model openai-compatible:coder"
    terminal.start(f"{model}; echo decode-exited-$?; sleep 60", project)
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")
    terminal.submit("plan the install")
    terminal.wait_for(lambda _: "working" in terminal.footer() and len(slow_model.requests) == 1, "the model thinking")

    terminal.submit("use pnpm")
    terminal.wait_for_text("↳ steer · use pnpm")  # waiting above the prompt, while the model still thinks
    slow_model.release()
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer after the turn")
    screen = terminal.wait_for_text("Switched to pnpm.")  # printed for good, not just streaming

    assert screen.index("Here is the plan.") < screen.index("❯ use pnpm") < screen.index("Switched to pnpm.")
    first, second = (request.body.decode() for request in slow_model.requests)
    assert "use pnpm" not in first
    assert "use pnpm" in second  # the turn's next request carried the steer
    terminal.keys("C-c", "C-c")  # twice in a row: leave
    terminal.wait_for_text("decode-exited-0")
