"""`decode run` with the Permission Gate: a real process, the scripted model, real files and bash."""

import json
from pathlib import Path

import pytest

from tests.conftest import own_settings
from tests.integration.permissions.conftest import bash, decode_run

pytestmark = pytest.mark.integration


def session_text(project: Path) -> str:
    """Everything the saved session holds: what the model was sent back for each call."""
    return "".join(path.read_text() for path in (project / ".decode" / "sessions").glob("*.jsonl"))


@pytest.fixture
def settings(project: Path) -> Path:
    rules = {"allow": ["Bash(touch allowed.txt)"], "deny": ["Bash(rm:*)"]}
    path = own_settings(project / ".decode" / "settings.local.json", json.dumps({"permissions": rules}))
    (project / "build").mkdir()
    return path


def test_allowed_runs_denied_and_asked_do_not(project: Path, settings: Path) -> None:
    done = decode_run(project, [bash("touch allowed.txt"), bash("touch x && rm -rf build"), bash("touch asked.txt")])
    assert done.returncode == 0, done.stderr
    assert done.stdout == "done\n"
    assert (project / "allowed.txt").exists()
    assert (project / "build").is_dir()
    assert not (project / "x").exists()
    assert not (project / "asked.txt").exists()
    # stderr shows the first 160 characters of each refusal; the model gets all of it.
    assert "Permission denied: rm -rf build: denied by Bash(rm:*)" in done.stderr
    assert "Permission needed (touch asked.txt: no rule allows it in default mode)" in done.stderr
    sent_back = session_text(project)
    assert f"denied by Bash(rm:*) ({settings}:1)" in sent_back
    assert "this run is headless" in sent_back


def test_bypass_runs_what_would_ask_but_never_a_deny(project: Path, settings: Path) -> None:
    done = decode_run(project, [bash("touch asked.txt"), bash("rm -rf build")], "--permission-mode", "bypass")
    assert done.returncode == 0, done.stderr
    assert (project / "asked.txt").exists()
    assert (project / "build").is_dir()


def test_accept_edits_writes_files_and_plan_refuses(project: Path) -> None:
    write = {"name": "write", "args": {"path": "notes.md", "content": "hello\n"}}
    done = decode_run(project, [write], "--permission-mode", "plan")
    assert done.returncode == 0, done.stderr
    assert not (project / "notes.md").exists()
    # Plan mode offers only the tools that change nothing (ADR-0048); the gate would refuse the rest too.
    refused = next(line for line in done.stderr.splitlines() if "Unknown tool name: 'write'" in line)
    assert "'read'" in refused
    assert "'edit'" not in refused
    assert "'bash'" not in refused

    done = decode_run(project, [write], "--permission-mode", "accept-edits")
    assert done.returncode == 0, done.stderr
    assert (project / "notes.md").read_text() == "hello\n"


def test_the_settings_default_mode_applies_and_reads_run_freely(project: Path) -> None:
    (project / ".decode").mkdir()
    (project / ".decode" / "settings.json").write_text('{"permissions": {"defaultMode": "acceptEdits"}}')
    (project / "README.md").write_text("hi\n")
    done = decode_run(
        project,
        [
            {"name": "read", "args": {"path": "README.md"}},
            {"name": "edit", "args": {"path": "README.md", "old_string": "hi", "new_string": "hello"}},
        ],
        "--trust-project-settings",  # the repository's own mode: in force once trusted
    )
    assert done.returncode == 0, done.stderr
    assert (project / "README.md").read_text() == "hello\n"


def test_a_broken_settings_file_is_a_warning_and_its_tools_are_refused(project: Path) -> None:
    broken = project / ".decode" / "settings.local.json"
    broken.parent.mkdir()
    broken.write_text('{"permissions": {"allow": ["Bash(ls)",]}}')
    done = decode_run(project, [bash("ls")])
    assert done.returncode == 0
    assert f"decode: warning: {broken}:1: not valid JSON" in done.stderr
    assert "denied by Bash (refused: its settings file is broken" in done.stderr


def test_an_unknown_mode_is_a_usage_error(project: Path) -> None:
    done = decode_run(project, [], "--permission-mode", "yolo")
    assert done.returncode == 2


def test_deep_input_is_refused_and_the_turn_goes_on(project: Path) -> None:
    deep = "echo " + "$(echo " * 250 + "x" + ")" * 250
    done = decode_run(project, [bash(deep), bash("echo after > after.txt")], "--permission-mode", "accept-edits")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "done\n"
    assert "Traceback" not in done.stderr
    assert "Permission needed" in done.stderr
    assert not (project / "after.txt").exists()  # asked too (echo has no rule), and the run went on


def test_a_secret_file_is_not_read_headless(project: Path) -> None:
    (project / ".env").write_text("API_KEY=sk-the-secret\n")
    calls = [
        {"name": "read", "args": {"path": ".env"}},
        bash("cat .env"),
        {"name": "grep", "args": {"pattern": "KEY", "path": ".env"}},
    ]
    done = decode_run(project, calls)
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("holds secrets") == 3
    assert "sk-the-secret" not in session_text(project)
    assert "sk-the-secret" not in done.stdout + done.stderr
