"""A file name that is not UTF-8 in a real terminal: the REPL shows it spelled `caf\\xe9.txt` and the turn goes on."""

import json
import os
from pathlib import Path

import pytest

from tests.integration.conftest import Terminal

pytestmark = pytest.mark.integration


def test_the_repl_shows_a_name_that_is_not_utf8_and_keeps_the_turn(
    terminal: Terminal, project: Path, decode: str
) -> None:
    (project / os.fsdecode(b"caf\xe9.txt")).write_bytes(b"hello\n")
    turns = project.parent / "turns.json"
    turns.write_text(
        json.dumps(
            [
                {"tool_calls": [{"name": "read", "args": {"path": "cafe.txt"}}]},  # the hint names the file
                {"tool_calls": [{"name": "glob", "args": {"pattern": "*.txt"}}]},
                {"tool_calls": [{"name": "read", "args": {"path": "caf\\xe9.txt"}}]},
                {
                    "tool_calls": [
                        {"name": "edit", "args": {"path": "caf\\xe9.txt", "old_string": "hello", "new_string": "bye"}}
                    ]
                },
                {"text": "All done."},
            ]
        )
    )
    terminal.start(f"{decode} --model script:{turns} --permission-mode bypass; sleep 60", project, size=(120, 50))
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")

    terminal.submit("look at the files")
    screen = terminal.wait_for_text("All done.")
    assert "Did you mean: caf\\\\xe9.t" in screen  # a failed result is shown as its JSON
    assert "✓ glob(*.txt) · caf\\xe9.txt" in screen
    assert "✓ edit(caf\\xe9.txt)" in screen
    assert "    1 + bye" in screen
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the REPL ready for the next turn")
    assert (project / os.fsdecode(b"caf\xe9.txt")).read_bytes() == b"bye\n"
    [log] = (project / ".decode" / "sessions").glob("*.jsonl")
    assert '"prompt":"look at the files"' in log.read_text(encoding="utf-8")  # the turn was saved
