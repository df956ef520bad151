"""A real terminal for the harness's end-to-end tests: tmux runs `decode`, the test types and reads.

Each test starts its own tmux server (`-L`), so nothing here touches a tmux the developer uses.
"""

import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

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
        self.tmux("set-option", "-t", "t", "scroll-on-clear", "off")  # prompt_toolkit clears its lines often

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", "t", *keys)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", "t", "-l", text)

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "t")

    def footer(self) -> str:
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
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    term = Terminal(f"decode-harness-{uuid.uuid4().hex[:8]}")
    yield term
    term.tmux("kill-server")
