"""Approvals and Shift+Tab in `decode` running in a real terminal (tmux types, the test reads the pane)."""

import json
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

DECODE = Path(sys.executable).parent / "decode"
WAIT_S = 30.0


class Terminal:
    """A tmux pane of a tmux server of its own (`-L`), so a developer's tmux is never touched."""

    def __init__(self) -> None:
        self.socket = f"decode-permissions-{uuid.uuid4().hex[:8]}"

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=30).stdout

    def start(self, command: str, cwd: Path) -> None:
        self.tmux("new-session", "-d", "-s", "t", "-x", "140", "-y", "40", "-c", str(cwd), command)
        self.tmux("set-option", "-t", "t", "scroll-on-clear", "off")

    def send(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "t")

    def wait_for(self, text: str, count: int = 1) -> str:
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            if (screen := self.screen()).count(text) >= count:
                return screen
            time.sleep(0.05)
        raise AssertionError(f"{text!r} did not appear; the terminal shows:\n{self.screen()}")


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    term = Terminal()
    yield term
    term.tmux("kill-server")


def test_approvals_and_shift_tab_in_a_real_terminal(terminal: Terminal, project: Path) -> None:
    calls = [
        {"name": "bash", "args": {"command": "touch once.txt"}},
        {"name": "bash", "args": {"command": "touch saved.txt"}},
        {"name": "write", "args": {"path": "notes.md", "content": "hi\n"}},
    ]
    turns = project.parent / "turns.json"
    turns.write_text(json.dumps([*({"tool_calls": [call]} for call in calls), {"text": "Finished."}]))
    terminal.start(f"{DECODE} --model script:{turns}; echo decode-exited-$?; sleep 60", project)
    terminal.wait_for("❯")

    terminal.send("-l", "make some files")
    terminal.send("Enter")
    terminal.wait_for("allow bash(touch once.txt)?")
    terminal.send("y", "Enter")
    terminal.wait_for("allow bash(touch saved.txt)?")
    terminal.send("a", "Enter")
    terminal.wait_for("allow write(notes.md)?")
    terminal.send("-l", "put notes in the README instead")
    terminal.send("Enter")
    screen = terminal.wait_for("Finished.")

    assert "✓ bash(touch once.txt)" in screen
    assert "✓ bash(touch saved.txt)" in screen
    assert "✗ write(notes.md) · The user said no. They said: put notes in the README" in screen
    assert (project / "once.txt").exists()
    assert (project / "saved.txt").exists()
    assert not (project / "notes.md").exists()
    local = json.loads((project / ".decode" / "settings.local.json").read_text())
    assert local == {"permissions": {"allow": ["Bash(touch saved.txt)"]}}

    terminal.send("BTab")
    terminal.wait_for("⏵⏵ accept-edits (shift+tab)")
    terminal.send("BTab")
    terminal.wait_for("permission mode: plan")
    terminal.send("-l", "/quit")
    terminal.send("Enter")
    terminal.wait_for("decode-exited-0")
