"""Fixtures for the integration tests: the real `decode` program, run as a user runs it.

`decode` is the program's path; `decode_cmd(*args, cwd=…)` runs it to the end and returns what it
printed. `terminal` is a real terminal: tmux runs a command, the test types with send-keys and
reads the pane. Each test starts its own tmux server (`-L`), so nothing here touches a tmux the
developer uses.
"""

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.integration.forkserver import as_text, run_forked

DECODE = str(Path(sys.executable).parent / "decode")
WAIT_S = 30.0  # how long a terminal test waits for text to appear

RunDecode = Callable[..., subprocess.CompletedProcess[str]]


def bash(*commands: str) -> dict[str, object]:
    """A scripted model's response that calls the bash tool, once per command (at once)."""
    return {"tool_calls": [{"name": "bash", "args": {"command": command}} for command in commands]}


@pytest.fixture
def decode() -> str:
    """The `decode` program of this virtual environment."""
    return DECODE


def _run_decode(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    # A process of its own, forked from one that imported the CLI already (tests/integration/forkserver.py).
    # stdin empty, not a terminal: `decode` alone says to use `decode run`.
    return as_text(run_forked([DECODE, *args], cwd=cwd, env={**os.environ, **(env or {})}))


def _run_fresh(*args: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **(env or {})}
    return subprocess.run([DECODE, *args], cwd=cwd, env=env, capture_output=True, text=True, input="", timeout=120)


@pytest.fixture
def fresh_decode_cmd() -> RunDecode:
    """`decode_cmd` as a process started anew, never a fork server's child: for tests that read what
    only such a process carries, such as its own environment block (`/proc/PID/environ`), which a
    forked child shares with the server."""
    return _run_fresh


@pytest.fixture
def decode_cmd() -> RunDecode:
    """`decode_cmd(*args, cwd=…, env=…)`: run `decode` to the end in `cwd`, with this test's HOME and
    environment plus `env`; returns the finished process (text stdout and stderr)."""
    return _run_decode


class Terminal:
    """A tmux pane running one command, on a tmux server of its own."""

    def __init__(self, socket: str) -> None:
        self.socket = socket

    def tmux(self, *args: str, check: bool = False) -> str:
        """Run a tmux command on this server; its output. `check`: fail the test if tmux fails."""
        done = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=30)
        assert done.returncode == 0 or not check, f"tmux {args[0]} failed: {done.stderr}"
        return done.stdout

    def start(self, command: str, cwd: Path, size: tuple[int, int] = (110, 40)) -> None:
        """Run `command` in `cwd` in a new pane of `size` (columns, rows), replacing any earlier one."""
        columns, rows = size
        self.tmux("kill-session", "-t", "t")  # a test may start a second command, e.g. `decode --resume`
        size_args = ("-x", str(columns), "-y", str(rows))
        self.tmux("new-session", "-d", "-s", "t", *size_args, "-c", str(cwd), command, check=True)
        # A server whose last session is killed exits, and a client that connects meanwhile fails
        # ("server exited unexpectedly"): this one stays until the test ends (`kill-server`).
        self.tmux("set-option", "-g", "exit-empty", "off")
        # By default tmux copies a cleared screen into the scrollback; prompt_toolkit clears its own
        # lines often, which would repeat them there.
        self.tmux("set-option", "-t", "t", "scroll-on-clear", "off")

    def keys(self, *keys: str) -> None:
        """Press keys by tmux's names ("Enter", "C-d", "BTab"…)."""
        self.tmux("send-keys", "-t", "t", *keys)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", "t", "-l", text)  # -l: literally, no key names

    def submit(self, line: str) -> None:
        """Type a line and press Enter."""
        self.type(line)
        self.keys("Enter")

    def screen(self) -> str:
        """Everything printed so far: -S - includes what scrolled off the top, -J joins wrapped lines."""
        return self.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "t")

    def pane(self) -> str:
        """What is on the screen now, row by row as the terminal shows it."""
        return self.tmux("capture-pane", "-p", "-t", "t")

    def footer(self) -> str:
        """The footer: the last line of the visible screen that has its separators."""
        return next((line for line in reversed(self.pane().splitlines()) if " │ " in line), "")

    def wait_for(self, condition: Callable[[str], bool], what: str) -> str:
        """Poll the screen until `condition(screen)` holds; returns that screen."""
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
    term = Terminal(f"decode-test-{uuid.uuid4().hex[:8]}")
    yield term
    term.tmux("kill-server")


@pytest.fixture(scope="session")
def wheel_files(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    """The names of the files in decode's wheel, built once (`uv build`) for the tests that ask."""
    import zipfile

    if shutil.which("uv") is None:
        pytest.skip("uv is not on PATH")
    out = tmp_path_factory.mktemp("wheel")
    repo = Path(__file__).resolve().parents[2]
    subprocess.run(
        ["uv", "build", "--wheel", "--python", sys.executable, "--out-dir", str(out), str(repo)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = out.glob("decode-*.whl")
    return set(zipfile.ZipFile(wheel).namelist())
