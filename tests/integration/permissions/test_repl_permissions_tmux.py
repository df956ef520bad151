"""Approvals and Shift+Tab in `decode` running in a real terminal (tmux types, the test reads the pane)."""

import json
from pathlib import Path

import pytest

from tests.integration.conftest import Terminal

pytestmark = pytest.mark.integration


def test_approvals_and_shift_tab_in_a_real_terminal(terminal: Terminal, project: Path, decode: str) -> None:
    calls = [
        {"name": "bash", "args": {"command": "touch once.txt"}},
        {"name": "bash", "args": {"command": "touch saved.txt"}},
        {"name": "write", "args": {"path": "notes.md", "content": "hi\n"}},
    ]
    turns = project.parent / "turns.json"
    turns.write_text(json.dumps([*({"tool_calls": [call]} for call in calls), {"text": "Finished."}]))
    terminal.start(f"{decode} --model script:{turns}; echo decode-exited-$?; sleep 60", project, size=(140, 40))
    terminal.wait_for_text("❯")

    terminal.submit("make some files")
    terminal.wait_for_text("allow bash(touch once.txt)?")
    terminal.keys("y")  # a single key answers (ADR-0049)
    terminal.wait_for_text("allow bash(touch saved.txt)?")
    terminal.keys("a")
    terminal.wait_for_text("allow write(notes.md)?")
    terminal.submit("put notes in the README instead")
    screen = terminal.wait_for_text("Finished.")

    assert "✓ bash(touch once.txt)" in screen
    assert "✓ bash(touch saved.txt)" in screen
    assert "✗ write(notes.md) · The user said no. They said: put notes in the README" in screen
    assert (project / "once.txt").exists()
    assert (project / "saved.txt").exists()
    assert not (project / "notes.md").exists()
    local = json.loads((project / ".decode" / "settings.local.json").read_text())
    assert local == {"permissions": {"allow": ["Bash(touch:*)"]}}  # "always": the command's first word
    assert "saved Bash(touch:*) to .decode/settings.local.json" in screen

    terminal.keys("BTab")
    terminal.wait_for_text("⏵⏵ accept-edits (shift+tab)")
    terminal.keys("BTab")
    terminal.wait_for_text("permission mode: plan")
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")
