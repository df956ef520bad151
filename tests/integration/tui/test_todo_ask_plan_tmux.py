"""The To-do List, ask_user and plan mode in `decode` running in a real terminal (tmux types, the test reads)."""

import json
from pathlib import Path
from typing import Any

import pytest

from decode.context.catalog import find_session
from decode.context.replay import load_session
from tests.integration.conftest import Terminal

pytestmark = pytest.mark.integration

STEPS = [{"content": "look at the tree", "status": "in_progress"}, {"content": "write notes.md", "status": "pending"}]


def script(project: Path, responses: list[dict[str, Any]]) -> Path:
    path = project.parent / "turns.json"
    path.write_text(json.dumps(responses))
    return path


def test_a_checklist_and_a_question_answered_with_one_key(terminal: Terminal, project: Path, decode: str) -> None:
    turns = script(
        project,
        [
            {"tool_calls": [{"name": "todo_write", "args": {"todos": STEPS}}]},
            {"tool_calls": [{"name": "ask_user", "args": {"question": "Which format?", "options": ["md", "rst"]}}]},
            {"text": "Finished."},
        ],
    )
    terminal.start(f"{decode} --model script:{turns}; echo decode-exited-$?; sleep 60", project)
    terminal.wait_for_text("❯")

    terminal.submit("write some notes")
    terminal.wait_for_text("1 = md · 2 = rst · or type your answer")
    screen = terminal.screen()
    assert "◼ look at the tree\n☐ write notes.md\nWhich format?" in screen  # the checklist, above the question
    terminal.keys("2")  # one key answers
    screen = terminal.wait_for_text("Finished.")

    assert "→ rst" in screen
    assert "✓ todo_write(" in screen
    assert "│ ◼ look at the tree" in screen  # the transcript keeps this version
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")
    assert "The user answered: rst" in str(load_session(find_session(project)).history)


def test_plan_mode_accepted_then_the_edit_runs_in_accept_edits(terminal: Terminal, project: Path, decode: str) -> None:
    turns = script(
        project,
        [
            {"tool_calls": [{"name": "exit_plan_mode", "args": {"plan": "1. Write `notes.md`."}}]},
            {"tool_calls": [{"name": "write", "args": {"path": "notes.md", "content": "hi\n"}}]},
            {"text": "Finished."},
        ],
    )
    terminal.start(f"{decode} --model script:{turns}; echo decode-exited-$?; sleep 60", project, size=(140, 40))
    terminal.wait_for_text("● ready")  # the mode can change once the agent is built
    terminal.keys("BTab")
    terminal.wait_for_text("permission mode: accept-edits")
    terminal.keys("BTab")
    terminal.wait_for_text("permission mode: plan")

    terminal.submit("plan the notes")
    choices = "a = yes, and accept edits · y = yes, and ask before edits · n = no, keep planning"
    # The plan, as Markdown, prints above the prompt a moment after the question shows.
    terminal.wait_for(lambda screen: choices in screen and "1 Write notes.md." in screen, "the plan and its question")
    terminal.keys("a")
    screen = terminal.wait_for_text("Finished.")

    assert "✓ write(notes.md)" in screen
    assert "allow write" not in screen  # accept-edits: it did not ask
    assert (project / "notes.md").read_text() == "hi\n"
    terminal.wait_for_text("⏵⏵ accept-edits")
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")
    assert load_session(find_session(project)).mode == "accept-edits"


def test_a_plan_rejected_with_feedback_stays_in_plan_mode(terminal: Terminal, project: Path, decode: str) -> None:
    turns = script(
        project,
        [
            {"tool_calls": [{"name": "exit_plan_mode", "args": {"plan": "1. Rewrite everything."}}]},
            {"text": "Finished."},
        ],
    )
    terminal.start(
        f"{decode} --model script:{turns} --permission-mode plan; echo decode-exited-$?; sleep 60", project, (140, 40)
    )
    terminal.wait_for_text("❯")
    terminal.submit("plan it")
    terminal.wait_for_text("n = no, keep planning")
    terminal.submit("Only touch calc.py")
    terminal.wait_for_text("Finished.")

    terminal.wait_for_text("⏵⏵ plan")
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")
    history = str(load_session(find_session(project)).history)
    assert "Their feedback: Only touch calc.py" in history
