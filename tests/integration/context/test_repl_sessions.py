"""The REPL's sessions in a real terminal: `/compact`, then `decode --resume` picks the conversation up.

tmux runs `decode`; the test types with send-keys and reads the pane. Each test has its own
tmux server (`-L`), so nothing here touches a tmux the developer uses.
"""

import json
import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from decode.context.catalog import find_session
from decode.context.replay import load_session
from decode.context.windows import SUMMARY_MARK

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

WAIT_S = 30.0


class Terminal:
    """A tmux pane running one command."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=30).stdout

    def start(self, command: str, cwd: Path) -> None:
        self.tmux("kill-session", "-t", "t")
        self.tmux("new-session", "-d", "-s", "t", "-x", "120", "-y", "40", "-c", str(cwd), command)

    def send(self, line: str) -> None:
        self.tmux("send-keys", "-t", "t", "-l", line)
        self.tmux("send-keys", "-t", "t", "Enter")

    def wait_for_text(self, text: str) -> str:
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            screen = self.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "t")
            if text in screen:
                return screen
            time.sleep(0.05)
        raise AssertionError(f"{text!r} did not appear; the terminal shows:\n{screen}")


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    term = Terminal(f"decode-test-{uuid.uuid4().hex[:8]}")
    yield term
    term.tmux("kill-server")


def test_compact_then_resume_in_the_repl(terminal: Terminal, project: Path, decode: str) -> None:
    turns = project / "turns.json"
    answers = ["The answer is forty-two.", "## Goal\nFind the answer.\n## Progress\nIt is 42.", "Still forty-two."]
    turns.write_text(json.dumps([{"text": answer} for answer in answers]))
    terminal.start(f"{decode} --model script:{turns}; echo decode-exited-$?; sleep 60", project)
    terminal.wait_for_text("● ready")
    terminal.send("what is the answer?")
    terminal.wait_for_text("The answer is forty-two.")
    terminal.send("/compact the number")
    terminal.wait_for_text("compacted 1 earlier message into a summary; the last one is kept verbatim")
    terminal.send("/quit")
    terminal.wait_for_text("decode-exited-0")

    saved = load_session(find_session(project))
    assert saved.turns == 1
    assert SUMMARY_MARK in saved.history[0].metadata

    # The script starts over in a new process: its first answer comes again, after the summary.
    terminal.start(f"{decode} --resume; echo decode-exited-$?; sleep 60", project)
    terminal.wait_for_text(f"resumed session {saved.session_id}: 2 messages, model")
    terminal.send("and again?")
    terminal.wait_for_text("The answer is forty-two.")
    terminal.send("/quit")
    terminal.wait_for_text("decode-exited-0")
    resumed = load_session(find_session(project))
    assert (resumed.session_id, resumed.turns, len(resumed.history)) == (saved.session_id, 2, 4)
    assert resumed.history[:2] == saved.history
