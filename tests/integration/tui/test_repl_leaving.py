"""Leaving and coming back, in a real terminal against a loopback OpenAI-compatible server.

The server records every request, so "quitting sends no request" is checked by counting them: with
session notes off (the default) leaving makes none; with them on, one, tried once (a failing server
is not retried while the user waits to leave).
"""

import re
from pathlib import Path

import pytest

from tests.integration.conftest import Terminal
from tests.integration.providers.conftest import SECRET
from tests.integration.providers.fake_servers import Fail, OpenAIServer, Turn

pytestmark = pytest.mark.integration

MODEL = "openai-compatible:local-coder"


@pytest.fixture
def server() -> OpenAIServer:
    server = OpenAIServer()
    yield server
    server.close()


def start(terminal: Terminal, project: Path, decode: str, server: OpenAIServer, *env: str) -> None:
    variables = " ".join([f"OPENAI_BASE_URL={server.url}/v1", f"OPENAI_API_KEY={SECRET}", *env])
    terminal.start(f"env {variables} {decode} --model {MODEL}; echo decode-exited-$?; sleep 60", project)
    terminal.wait_for_text("● ready")


def test_status_then_quitting_sends_no_request_and_prints_how_to_resume(
    terminal: Terminal, project: Path, decode: str, server: OpenAIServer
) -> None:
    server.plan(Turn(text="Hello from the loopback server."), Turn(text="A NOTE NOBODY ASKED FOR"))
    start(terminal, project, decode, server)
    terminal.submit("hi")
    terminal.wait_for_text("Hello from the loopback server.")

    terminal.submit("/status")
    screen = terminal.wait_for_text("session:")
    session_id = re.search(r"session:\s+(\w+) \(saved\)", screen)
    assert session_id is not None, screen
    assert f"model:     {MODEL}" in screen
    assert "mode:      default" in screen
    assert re.search(r"context:   \d+ of [\d.]+k tokens \(\d+%\)", screen), screen

    terminal.submit("/quit")
    screen = terminal.wait_for_text("decode-exited-0")
    assert len(server.requests) == 1  # the turn's; leaving asked for nothing
    assert server.unused == [Turn(text="A NOTE NOBODY ASKED FOR")]
    assert f"decode --resume {session_id[1]}" in screen
    assert not (project / ".decode" / "MEMORY.md").exists()


def test_with_notes_on_a_failing_note_is_tried_once_and_leaving_goes_on(
    terminal: Terminal, project: Path, decode: str, server: OpenAIServer
) -> None:
    # Retries would take 1 + 2 + 4 s of back-off; the note is one attempt, whatever it gets.
    server.plan(Turn(text="Done."), Fail(503), Turn(text="never reached"))
    start(terminal, project, decode, server, "DECODE_SESSION_NOTES=true", "DECODE_RETRY_BASE_DELAY=1")
    terminal.submit("do it")
    terminal.wait_for_text("Done.")

    terminal.keys("C-d")
    screen = terminal.wait_for_text("decode-exited-0")
    assert len(server.requests) == 2  # the turn, and the note's single attempt
    assert "memory: session note skipped" in screen
    assert "retry" not in screen
    assert not (project / ".decode" / "MEMORY.md").exists()


def test_with_notes_on_leaving_writes_the_note(
    terminal: Terminal, project: Path, decode: str, server: OpenAIServer
) -> None:
    server.plan(Turn(text="Renamed."), Turn(text="Renamed utils to helpers."))
    start(terminal, project, decode, server, "DECODE_SESSION_NOTES=true")
    terminal.submit("rename utils")
    terminal.wait_for_text("Renamed.")

    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")
    assert (project / ".decode" / "MEMORY.md").read_text().rstrip().endswith("UTC: Renamed utils to helpers.")


def test_resume_where_there_is_nothing_to_resume_says_so_and_exits_2(
    terminal: Terminal, project: Path, decode: str
) -> None:
    terminal.start(f"{decode} --resume; echo decode-exited-$?; sleep 60", project)
    screen = terminal.wait_for_text("decode-exited-2")
    assert "no saved sessions in" in screen
    assert "nothing to resume" in screen
