"""Project Trust for settings in the REPL, in a real terminal: the repository's allow rules wait for
a yes (asked once, each grant shown), then run without asking; the yes is remembered."""

import json
from pathlib import Path

import pytest

from tests.integration.conftest import Terminal

pytestmark = pytest.mark.integration


def test_the_repositorys_allows_run_once_trusted_and_the_trust_is_remembered(
    terminal: Terminal, project: Path, decode: str
) -> None:
    (project / ".claude").mkdir()
    (project / ".claude" / "settings.json").write_text(json.dumps({"permissions": {"allow": ["Bash(touch ok.txt)"]}}))
    turns = project.parent / "turns.json"
    call = {"tool_calls": [{"name": "bash", "args": {"command": "touch ok.txt"}}]}
    turns.write_text(json.dumps([call, {"text": "Made it."}]))
    command = f"{decode} --model script:{turns}; echo decode-exited-$?; sleep 60"

    terminal.start(command, project, size=(160, 40))
    terminal.wait_for_text("Trust them?")
    terminal.wait_for_text("allow Bash(touch ok.txt)")  # each grant is shown, with its file (maybe a frame later)
    terminal.submit("yes")
    terminal.wait_for_text("the repository's settings are trusted")
    terminal.submit("make the file")
    screen = terminal.wait_for_text("Made it.")
    assert (project / "ok.txt").exists()  # ran without a question: the trusted allow rule
    assert "allow bash(touch ok.txt)?" not in screen
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")

    # Remembered: the next start does not ask.
    assert (Path.home() / ".decode" / "trusted-settings.json").is_file()
    terminal.start(command, project, size=(160, 40))
    terminal.wait_for_text("❯")
    terminal.submit("/permissions")
    screen = terminal.wait_for_text("files read, lowest priority first:")
    assert "Trust them?" not in screen
    assert "not in force" not in screen
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")
