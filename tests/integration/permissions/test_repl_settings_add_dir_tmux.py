"""`decode --settings FILE --add-dir DIR`: the REPL takes both, as `decode run` does (a real terminal)."""

import json
from pathlib import Path

import pytest

from tests.integration.conftest import RunDecode, Terminal
from tests.integration.permissions.conftest import decode_run

pytestmark = pytest.mark.integration


def test_the_repl_reads_an_added_dir_and_keeps_the_settings_deny(
    terminal: Terminal, project: Path, decode: str
) -> None:
    other = project.parent / "other"
    other.mkdir()
    (other / "notes.txt").write_text("shared notes\n")
    settings = project.parent / "run-settings.json"
    settings.write_text(json.dumps({"permissions": {"deny": ["Bash(touch:*)"]}}))
    calls = [{"name": "read", "args": {"path": "../other/notes.txt"}}, {"name": "bash", "args": {"command": "touch x"}}]
    turns = project.parent / "turns.json"
    turns.write_text(json.dumps([*({"tool_calls": [call]} for call in calls), {"text": "Finished."}]))
    command = f"{decode} --model script:{turns} --settings {settings} --add-dir ../other; echo decode-exited-$?"
    terminal.start(f"{command}; sleep 60", project, size=(140, 40))
    terminal.wait_for_text("❯")
    terminal.submit("read the shared notes")
    screen = terminal.wait_for_text("Finished.")
    assert "✓ read(../other/notes.txt)" in screen  # a read in an added folder runs without asking
    assert "✗ bash(touch x)" in screen  # denied by --settings: no question asked
    assert "allow bash" not in screen
    assert not (project / "x").exists()
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")


def test_the_repl_refuses_a_bad_value_with_one_line(project: Path, decode_cmd: RunDecode) -> None:
    for args, said in (
        (("--settings", "{oops"), "--settings (line 1): not valid JSON"),
        (("--add-dir", "nowhere"), "--add-dir nowhere: no such directory"),
    ):
        done = decode_cmd(*args, cwd=project)
        assert done.returncode == 2
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1, done.stderr
        assert said in lines[0]


def test_add_dir_in_the_repl_lets_the_next_read_run(terminal: Terminal, project: Path, decode: str) -> None:
    other = project.parent / "other"
    other.mkdir()
    (other / "notes.txt").write_text("shared notes\n")
    read = {"tool_calls": [{"name": "read", "args": {"path": "../other/notes.txt"}}]}
    turns = project.parent / "turns.json"
    turns.write_text(json.dumps([read, {"text": "Could not."}, read, {"text": "Read it."}]))
    terminal.start(f"{decode} --model script:{turns}; echo decode-exited-$?; sleep 60", project, size=(140, 40))
    terminal.wait_for_text("❯")
    terminal.submit("read the shared notes")
    terminal.wait_for_text("allow read(../other/notes.txt)?")  # outside the Workspace: it asks
    terminal.keys("n")
    terminal.wait_for_text("Could not.")
    terminal.submit("/add-dir ../nowhere")
    terminal.wait_for_text("/add-dir ../nowhere: no such directory")
    terminal.submit("/add-dir ../other")
    said = f"added {other.resolve()}: the tools may use it under the Workspace's rules"
    joined = "".join(said.split())  # Rich wraps a long line anywhere: compare without whitespace
    terminal.wait_for(lambda screen: joined in "".join(screen.split()), repr(said))
    terminal.submit("read them now")
    screen = terminal.wait_for_text("Read it.")
    assert screen.count("✓ read(../other/notes.txt)") == 1  # the second read ran without asking
    terminal.submit("/add-dir")
    listed = terminal.wait_for_text("folders beside the Workspace:").split("folders beside the Workspace:")[-1]
    assert str(other.resolve()) in "".join(listed.split())  # a long path wraps
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")
    before = logged(project).count("shared notes")
    resumed = decode_run(project, [{"name": "read", "args": {"path": "../other/notes.txt"}}], "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert logged(project).count("shared notes") == before + 1  # the folder came back with the session


def logged(project: Path) -> str:
    """The session logs' text."""
    return "".join(path.read_text() for path in (project / ".decode" / "sessions").glob("*.jsonl"))
