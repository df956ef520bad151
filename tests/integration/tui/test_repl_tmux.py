"""`decode` in a real terminal: tmux runs it, the test types with send-keys and reads the pane."""

import json
from pathlib import Path

import pytest

from tests.integration.conftest import RunDecode, Terminal

pytestmark = pytest.mark.integration


def test_a_scripted_session_in_a_real_terminal(terminal: Terminal, project: Path, decode: str) -> None:
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
    terminal.start(f"{decode} --model script:{turns}; echo decode-exited-$?; sleep 60", project)

    # The prompt and the footer, then the footer says the agent is warm.
    terminal.wait_for_text("❯")
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")
    assert "script:turns.json" in terminal.footer()

    terminal.submit("what is this project?")
    # Finished blocks print above the prompt while the live area shows the one still streaming, so
    # read the screen once the turn is over (ready, with usage): then every block has been printed.
    terminal.wait_for(
        lambda _: "● ready" in terminal.footer() and " 0 tokens" not in terminal.footer(), "the turn's end"
    )
    screen = terminal.wait_for_text("That is all.")

    assert "❯ what is this project?" in screen
    assert "Reading the README." in screen
    tool_line = next(line for line in screen.splitlines() if "read(README.md)" in line)
    assert tool_line.startswith("✓ read(README.md) · ")
    assert "The project is tiny." in screen  # Markdown rendered: no asterisks
    assert "print('demo')" in screen
    assert "```" not in screen
    footer = terminal.footer()
    assert "tokens" in footer
    assert "$ n/a" in footer  # no price is known for a scripted model
    assert f"/{project.name} │" in footer

    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")
    assert "what is this project?" in (project / ".decode" / "history").read_text()


def test_ctrl_d_leaves_and_a_missing_key_does_not_stop_the_repl(terminal: Terminal, project: Path, decode: str) -> None:
    terminal.start(f"{decode}; echo decode-exited-$?; sleep 60", project)  # Gemini by default, and no key
    terminal.wait_for_text("GEMINI_API_KEY is not set")
    terminal.wait_for(lambda _: "✗ no model" in terminal.footer(), "the no-model footer")
    terminal.submit("/help")
    # The help prints between two prompts, when the terminal is not in raw mode and swallows a Ctrl-D
    # as end-of-file: press it once the next prompt has drawn its footer below the help.
    terminal.wait_for(lambda screen: "✗ no model" in screen.partition("Leave decode")[2], "the prompt after /help")
    terminal.keys("C-d")
    terminal.wait_for_text("decode-exited-0")


def test_without_a_terminal_decode_exits_2_and_points_to_decode_run(project: Path, decode_cmd: RunDecode) -> None:
    done = decode_cmd(cwd=project)  # stdin is not a terminal
    assert done.returncode == 2
    assert done.stdout == ""
    assert 'decode run "TASK"' in done.stderr
