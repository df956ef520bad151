"""The REPL in a real terminal, stopped from outside while a command runs: SIGTERM to decode, or
the terminal closing (SIGHUP). Nothing the command started survives, and the turn is kept."""

import json
from pathlib import Path

import pytest

from tests.conftest import gone, has_pid
from tests.integration.conftest import Terminal

pytestmark = pytest.mark.integration

COMMAND = "echo $PPID > decode.pid; setsid sleep 1000 & echo $! > daemon.pid; sleep 1000 & echo $! > child.pid; wait"


def started(terminal: Terminal, project: Path, decode: str) -> list[int]:
    """Start the REPL, send a prompt whose command never ends; the pids of decode and the sleeps."""
    script = project.parent / "turns.json"
    script.write_text(json.dumps([{"tool_calls": [{"name": "bash", "args": {"command": COMMAND}}]}, {"text": "x"}]))
    terminal.start(
        f"{decode} --permission-mode bypass --model script:{script}; echo decode-exited-$?; sleep 60", project
    )
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")
    terminal.submit("wait forever")
    names = ("decode.pid", "daemon.pid", "child.pid")

    def written(_: str) -> bool:
        return all(has_pid(project / name) for name in names)

    terminal.wait_for(written, "the pid files")
    return [int((project / name).read_text()) for name in names]


def test_sigterm_to_the_repl_ends_the_running_command_and_keeps_the_turn(
    terminal: Terminal, project: Path, decode: str
) -> None:
    import os
    import signal

    decode_pid, *sleeps = started(terminal, project, decode)
    os.kill(decode_pid, signal.SIGTERM)
    terminal.wait_for_text("decode-exited-143")
    assert [pid for pid in sleeps if not gone(pid)] == []
    session = next((project / ".decode" / "sessions").glob("*.jsonl")).read_text()
    assert "echo $PPID > decode.pid" in session  # the aborted turn was kept


def test_closing_the_terminal_ends_the_running_command(terminal: Terminal, project: Path, decode: str) -> None:
    decode_pid, *sleeps = started(terminal, project, decode)
    terminal.tmux("kill-session", "-t", "t")  # the pane's processes get SIGHUP
    assert gone(decode_pid)
    assert [pid for pid in sleeps if not gone(pid)] == []
