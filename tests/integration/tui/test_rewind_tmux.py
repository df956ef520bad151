"""Checkpoints in a real terminal: the model (a chat-completions server on loopback) edits files
through the real tools, then `/undo` and `/rewind` (opened with Esc Esc) put them back."""

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.integration.conftest import Terminal
from tests.integration.context.conftest import last_user_text, model_server, without_facts

pytestmark = pytest.mark.integration

__all__ = ["model_server"]  # the loopback model server, a fixture of this module too


def tool_results_since_prompt(request: dict[str, Any]) -> int:
    """How many tool results came back since the user's prompt: the step of the turn."""
    count = 0
    for message in reversed(without_facts(request["messages"])):
        if message["role"] == "tool":
            count += 1
        elif message["role"] == "user":
            return count
    return count


def editor(request: dict[str, Any]) -> dict[str, Any]:
    """`edit NAME to TEXT`: read NAME, then edit its `old` to TEXT, then say so.
    `make NAME`: write NAME, then say so."""
    prompt = last_user_text(request)
    step = tool_results_since_prompt(request)
    if match := re.search(r"edit (\S+) to (\S+)", prompt):
        name, text = match.groups()
        steps = [("read", {"path": name}), ("edit", {"path": name, "old_string": "old", "new_string": text})]
        return {"tool": steps[step]} if step < len(steps) else {"text": f"Edited {name}."}
    if match := re.search(r"make (\S+)", prompt):
        name = match.group(1)
        return {"tool": ("write", {"path": name, "content": f"{name} made\n"})} if step == 0 else {"text": "Made."}
    return {"text": "OK."}


@pytest.fixture
def started(terminal: Terminal, project: Path, decode: str, model_server, monkeypatch: pytest.MonkeyPatch):
    server, env = model_server(editor)
    for name in ("DECODE_MODEL", "OPENAI_BASE_URL", "DECODE_MAX_RETRIES", "DECODE_CONTEXT_WINDOW"):
        monkeypatch.setenv(name, env[name])  # the terminal's server starts with this environment
    terminal.start(f"{decode} --permission-mode accept-edits; echo decode-exited-$?; sleep 60", project)
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")
    return server


def input_line(terminal: Terminal) -> str:
    """The input line: the last line of the screen that starts with the prompt."""
    return next((line.rstrip() for line in reversed(terminal.pane().splitlines()) if line.startswith("❯")), "")


def ready(terminal: Terminal) -> None:
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the turn over: saved, then ready")


def test_an_edit_then_undo_restores_the_file(terminal: Terminal, project: Path, started) -> None:
    notes = project / "notes.txt"
    notes.write_text("the old text\n")
    terminal.submit("edit notes.txt to new")
    terminal.wait_for_text("Edited notes.txt.")
    ready(terminal)
    assert notes.read_text() == "the new text\n"

    terminal.submit("/undo")
    screen = terminal.wait_for_text("conversation rewound to before turn 1")

    assert "restored notes.txt" in screen
    assert notes.read_text() == "the old text\n"
    (log,) = (project / ".decode" / "sessions").glob("*.jsonl")
    last = json.loads(log.read_text().splitlines()[-1])
    assert (last["type"], last["keep"], last["turns"]) == ("rewind", 0, 1)
    terminal.wait_for(lambda _: input_line(terminal) == "❯ edit notes.txt to new", "the prompt back in the input line")
    terminal.keys("C-u")  # clear it
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")


def test_rewind_picks_turn_1_with_esc_esc(terminal: Terminal, project: Path, started) -> None:
    for number in (1, 2, 3):
        terminal.submit(f"make t{number}.txt")
        terminal.wait_for(lambda screen, n=number: screen.count("Made.") == n, f"turn {number} answered")
        ready(terminal)

    terminal.keys("Escape", "Escape")
    terminal.wait_for_text("Rewind to before which turn?")
    screen = terminal.wait_for_text("1. make t1.txt · t1.txt")
    assert screen.index("3. make t3.txt") < screen.index("2. make t2.txt") < screen.index("1. make t1.txt")
    terminal.keys("Down", "Down", "Enter")  # newest first: the third entry is turn 1
    terminal.wait_for_text("Turn 1: make t1.txt — restore what?")
    terminal.keys("Enter")  # code and conversation
    screen = terminal.wait_for_text("conversation rewound to before turn 1")

    assert "removed t1.txt, t2.txt, t3.txt" in screen
    assert not any((project / f"t{number}.txt").exists() for number in (1, 2, 3))
    terminal.wait_for(lambda _: input_line(terminal) == "❯ make t1.txt", "the turn's prompt back in the input line")
    terminal.keys("C-u")
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")


def test_undo_after_resume(terminal: Terminal, project: Path, decode: str, started) -> None:
    notes = project / "notes.txt"
    notes.write_text("the old text\n")
    terminal.submit("edit notes.txt to new")
    terminal.wait_for_text("Edited notes.txt.")
    ready(terminal)
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")

    terminal.start(f"{decode} --resume --permission-mode accept-edits; echo decode-exited-$?; sleep 60", project)
    ready(terminal)
    terminal.submit("/undo")
    screen = terminal.wait_for_text("conversation rewound to before turn 1")

    assert "restored notes.txt" in screen
    assert notes.read_text() == "the old text\n"


def test_undo_after_a_command_says_it_is_not_tracked(terminal: Terminal, project: Path, started) -> None:
    terminal.submit("!echo hi > made.txt")
    terminal.wait_for_text("allow bash(echo hi > made.txt)?")
    terminal.type("y")
    terminal.wait_for_text("✓ bash(echo hi > made.txt)")
    ready(terminal)

    terminal.submit("/undo")
    screen = terminal.wait_for_text("conversation rewound to before turn 1")

    assert "those turns ran commands: what they changed is not tracked, so it stays" in screen
    assert (project / "made.txt").read_text() == "hi\n"


def test_a_file_changed_since_is_asked_about(terminal: Terminal, project: Path, started) -> None:
    notes = project / "notes.txt"
    notes.write_text("the old text\n")
    terminal.submit("edit notes.txt to new")
    terminal.wait_for_text("Edited notes.txt.")
    ready(terminal)
    notes.write_text("my own text\n")  # the user edits it meanwhile

    terminal.submit("/undo")
    terminal.wait_for_text("changed since that turn (by you or a command): notes.txt")
    terminal.keys("Down", "Enter")  # keep it as it is, restore the rest
    screen = terminal.wait_for_text("conversation rewound to before turn 1")

    assert "not restored: notes.txt (changed since: kept as it is)" in screen
    assert notes.read_text() == "my own text\n"
