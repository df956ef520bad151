"""The transcript in a real terminal: a long paste collapsed, a resumed session's tool lines, the bell."""

import json
from pathlib import Path

import pytest

from tests.integration.conftest import Terminal
from tests.integration.context.conftest import last_user_text, model_server

pytestmark = pytest.mark.integration

__all__ = ["model_server"]  # the loopback model server, a fixture of this module too

PASTE = "".join(f"traceback line {n}\n" for n in range(95))


def test_a_long_paste_is_collapsed_on_screen_and_sent_whole(
    terminal: Terminal, project: Path, decode: str, model_server, monkeypatch: pytest.MonkeyPatch
) -> None:
    server, env = model_server(lambda request: {"text": "Got the traceback."})
    for name in ("DECODE_MODEL", "OPENAI_BASE_URL", "DECODE_MAX_RETRIES", "DECODE_CONTEXT_WINDOW"):
        monkeypatch.setenv(name, env[name])  # the terminal's server starts with this environment
    terminal.start(f"{decode}; echo decode-exited-$?; sleep 60", project)
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")

    terminal.type("what is wrong here? ")
    terminal.tmux("set-buffer", "-b", "p", PASTE, check=True)
    terminal.tmux("paste-buffer", "-p", "-b", "p", "-t", "t", check=True)  # -p: as a bracketed paste
    terminal.wait_for(
        lambda _: "❯ what is wrong here? [Pasted text #1 +95 lines]" in terminal.pane(), "the placeholder"
    )
    terminal.keys("Enter")
    screen = terminal.wait_for_text("Got the traceback.")
    assert "❯ what is wrong here? [Pasted text #1 +95 lines]" in screen  # the transcript's echo
    assert "traceback line 50" not in screen
    (request,) = server.requests
    assert last_user_text(request) == "what is wrong here? " + PASTE  # the model reads it all


def test_a_resumed_session_replays_its_tool_lines_and_an_interruption_is_no_prompt(
    terminal: Terminal, project: Path, decode: str
) -> None:
    turns = project.parent / "turns.json"
    turns.write_text(
        json.dumps(
            [
                {"tool_calls": [{"name": "bash", "args": {"command": "echo replayed-output"}}]},
                {"text": "It printed."},
                {"tool_calls": [{"name": "bash", "args": {"command": "sleep 30"}}]},
                {"text": "unused"},
            ]
        )
    )
    start = f"{decode} --model script:{turns} --permission-mode bypass"
    terminal.start(f"{start}; sleep 60", project, size=(120, 40))
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")
    terminal.submit("say something")
    terminal.wait_for_text("It printed.")
    terminal.submit("wait a while")
    terminal.wait_for(lambda _: "bash(sleep 30) · " in terminal.pane(), "the running command")
    terminal.keys("Escape")
    terminal.wait_for_text("✗ bash(sleep 30) · stopped")
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer again")
    terminal.submit("/quit")
    terminal.wait_for_text("continue it with: decode --resume")

    terminal.start(f"{start} --resume; sleep 60", project, size=(120, 40))
    screen = terminal.wait_for_text("resumed session")
    lines = [line.rstrip() for line in screen.splitlines()]
    assert "❯ say something" in lines
    assert "✓ bash(echo replayed-output) · exit 0 · 1 line" in lines  # as it was shown, without the time
    assert "  │ replayed-output" in lines
    assert "It printed." in lines
    assert "❯ wait a while" in lines
    assert any(line.startswith("✗ bash(sleep 30) · Interrupted by the user") for line in lines)
    assert "interrupted" in lines
    assert "The user interrupted this turn" not in screen  # the note is the model's, not a prompt


def test_decode_sessions_in_a_narrow_terminal_cuts_the_prompt_never_the_id(
    terminal: Terminal, project: Path, decode: str
) -> None:
    from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, UserPromptPart

    from decode.context.session_log import SessionLog
    from decode.entities.usage import Usage

    log = SessionLog.new(project, model="script:s.json")
    prompt = "look at the failing build on the main branch and tell me why it broke " * 3
    log.append_turn(
        [ModelRequest(parts=[UserPromptPart(prompt)]), ModelResponse(parts=[TextPart("ok")])], Usage(), model="m"
    )
    terminal.start(f"{decode} sessions; echo listed-$?; sleep 60", project, size=(50, 20))
    screen = terminal.wait_for_text("listed-0")
    row = next(line for line in screen.splitlines() if log.session_id in line)
    assert row.startswith(log.session_id + "  just now")  # id and date first, whole
    assert row.rstrip().endswith("…")  # the prompt cut to the 50 columns, on one line
    assert "look at the" in row


@pytest.mark.parametrize("bell", ["", "false"])
def test_an_approval_rings_the_terminals_bell_unless_turned_off(
    terminal: Terminal, project: Path, decode: str, bell: str
) -> None:
    turns = project.parent / "turns.json"
    turns.write_text(json.dumps([{"tool_calls": [{"name": "bash", "args": {"command": "touch f.txt"}}]}]))
    setting = f"DECODE_BELL={bell} " if bell else ""
    terminal.start(f"{setting}{decode} --model script:{turns}; sleep 60", project)
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")

    def bell_flag() -> str:
        return terminal.tmux("display-message", "-p", "-t", "t", "#{window_bell_flag}").strip()

    assert bell_flag() == "0"
    terminal.submit("make a file")
    terminal.wait_for_text("allow bash(touch f.txt)?")
    if not bell:
        terminal.wait_for(lambda _: bell_flag() == "1", "the bell")
    terminal.type("n")
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer again")
    assert bell_flag() == ("0" if bell else "1")
