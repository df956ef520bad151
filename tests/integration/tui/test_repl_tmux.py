"""`decode` in a real terminal: tmux runs it, the test types with send-keys and reads the pane.

Each test starts its own tmux server (`-L`), so nothing here touches a tmux the developer uses.
"""

import json
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

DECODE = Path(sys.executable).parent / "decode"
WAIT_S = 30.0


class Terminal:
    """A tmux pane running one command."""

    def __init__(self, socket: str, size: tuple[int, int] = (110, 40)) -> None:
        self.socket = socket
        self.size = size

    def tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=30)
        return done.stdout

    def start(self, command: str, cwd: Path) -> None:
        columns, rows = self.size
        self.tmux("new-session", "-d", "-s", "t", "-x", str(columns), "-y", str(rows), "-c", str(cwd), command)
        # By default tmux copies a cleared screen into the scrollback; prompt_toolkit clears its own
        # lines often, which would repeat them there.
        self.tmux("set-option", "-t", "t", "scroll-on-clear", "off")

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", "t", "-l", text)  # -l: literally, no key names

    def screen(self) -> str:
        """Everything printed so far: -S - includes what scrolled off the top, -J joins wrapped lines."""
        return self.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "t")

    def footer(self) -> str:
        """The footer: the last line of the visible screen that has its separators."""
        visible = self.tmux("capture-pane", "-p", "-t", "t")
        return next((line for line in reversed(visible.splitlines()) if " │ " in line), "")

    def wait_for(self, condition: Callable[[str], bool], what: str) -> str:
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            screen = self.screen()
            if condition(screen):
                return screen
            time.sleep(0.05)
        raise AssertionError(f"{what} did not appear; the terminal shows:\n{self.screen()}")

    def wait_for_text(self, text: str) -> str:
        return self.wait_for(lambda screen: text in screen, repr(text))


@pytest.fixture
def terminal() -> Iterator[Terminal]:
    term = Terminal(f"decode-test-{uuid.uuid4().hex[:8]}")
    yield term
    term.tmux("kill-server")


def test_a_scripted_session_in_a_real_terminal(terminal: Terminal, project: Path) -> None:
    (project / "README.md").write_text("# Demo\n\nA tiny project.\n")
    turns = project / "turns.json"
    turns.write_text(
        json.dumps(
            [
                {"text": "Reading the README.", "tool_calls": [{"name": "read", "args": {"path": "README.md"}}]},
                {"text": "The project is **tiny**.\n\n```python\nprint('demo')\n```\n\nThat is all."},
            ]
        )
    )
    terminal.start(f"{DECODE} --model script:{turns}; echo decode-exited-$?; sleep 60", project)

    # The prompt and the footer, then the footer says the agent is warm.
    terminal.wait_for_text("❯")
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")
    assert "script:turns.json" in terminal.footer()

    terminal.type("what is this project?")
    terminal.keys("Enter")
    screen = terminal.wait_for_text("That is all.")

    assert "❯ what is this project?" in screen
    assert "Reading the README." in screen
    tool_line = next(line for line in screen.splitlines() if "read(README.md)" in line)
    assert tool_line.startswith("✓ read(README.md) · ")
    assert "The project is tiny." in screen  # Markdown rendered: no asterisks
    assert "print('demo')" in screen
    assert "```" not in screen
    terminal.wait_for(lambda _: "● ready" in terminal.footer() and " 0 tokens" not in terminal.footer(), "usage")
    footer = terminal.footer()
    assert "tokens" in footer
    assert "$ n/a" in footer  # no price is known for a scripted model
    assert f"/{project.name} │" in footer

    terminal.type("/quit")
    terminal.keys("Enter")
    terminal.wait_for_text("decode-exited-0")
    assert "what is this project?" in (project / ".decode" / "history").read_text()


def test_ctrl_d_leaves_and_a_missing_key_does_not_stop_the_repl(terminal: Terminal, project: Path) -> None:
    terminal.start(f"{DECODE}; echo decode-exited-$?; sleep 60", project)  # Gemini by default, and no key
    terminal.wait_for_text("GEMINI_API_KEY is not set")
    terminal.wait_for(lambda _: "✗ no model" in terminal.footer(), "the no-model footer")
    terminal.type("/help")
    terminal.keys("Enter")
    terminal.wait_for_text("Leave decode")
    terminal.keys("C-d")
    terminal.wait_for_text("decode-exited-0")


def test_without_a_terminal_decode_exits_2_and_points_to_decode_run(project: Path) -> None:
    done = subprocess.run(
        [str(DECODE)], cwd=project, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert 'decode run "TASK"' in done.stderr
