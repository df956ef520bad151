"""Claude Code's `--settings` and `--add-dir` arrive with the lessons that teach what they change
(ADR-0132): the command-line settings layer with lesson 06's settings layers and gate, an added
folder with lesson 17's Workspace. The snapshot before each lesson has no such option; the lesson's
own snapshot runs it for real, in `decode run` and (for `--settings`) `decode permissions`."""

import json
from pathlib import Path

from tests.lessons.conftest import Snapshot, decode


def script(project: Path, *calls: dict) -> str:
    """A scripted model making `calls`, one per response, then answering: its `--model` value."""
    path = project.parent / "script.json"
    path.write_text(json.dumps([*({"tool_calls": [call]} for call in calls), {"text": "done"}]))
    return f"script:{path}"


def session_text(project: Path) -> str:
    return "".join(path.read_text() for path in (project / ".decode" / "sessions").glob("*.jsonl"))


DENY_TOUCH = '{"permissions": {"deny": ["Bash(touch:*)"]}}'


def test_settings_arrives_with_lesson_06(snapshot: Snapshot, project: Path) -> None:
    touch = script(project, {"name": "bash", "args": {"command": "touch made.txt"}})
    before = decode(snapshot(5), project, "run", "--settings", DENY_TOUCH, "--model", touch, "go")
    assert before.returncode == 2
    assert "No such option '--settings'" in before.stderr
    run = ("run", "--permission-mode", "bypass", "--settings", DENY_TOUCH, "--model", touch, "go")
    done = decode(snapshot(6), project, *run)
    assert done.returncode == 0, done.stderr
    assert "denied by Bash(touch:*)" in done.stderr
    assert not (project / "made.txt").exists()
    checked = decode(snapshot(6), project, "permissions", "check", "bash", "touch x", "--settings", DENY_TOUCH)
    assert checked.returncode == 4, checked.stderr
    assert "--settings:1 (command-line)" in checked.stdout


def test_add_dir_arrives_with_lesson_17(snapshot: Snapshot, project: Path) -> None:
    shared = project.parent / "shared"
    shared.mkdir()
    (shared / "api.md").write_text("the shared API notes\n")
    read = script(project, {"name": "read", "args": {"path": "../shared/api.md"}})
    before = decode(snapshot(16), project, "run", "--add-dir", "../shared", "--model", read, "go")
    assert before.returncode == 2
    assert "No such option '--add-dir'" in before.stderr
    done = decode(snapshot(17), project, "run", "--add-dir", "../shared", "--model", read, "go")
    assert done.returncode == 0, done.stderr
    assert "the shared API notes" in session_text(project)
    refused = decode(snapshot(17), project, "run", "--add-dir", str(Path.home()), "--model", read, "go")
    assert refused.returncode == 2
    assert "refused, it holds your home folder" in refused.stderr
