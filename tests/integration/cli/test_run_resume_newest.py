"""`decode run --resume "TASK"` continues the newest session; `decode run -h` is help."""

import json
from pathlib import Path

import pytest

from decode.context.catalog import find_session
from decode.context.replay import load_session
from tests.integration.conftest import RunDecode

pytestmark = pytest.mark.integration


def test_resume_without_an_id_continues_the_newest_session(project: Path, decode_cmd: RunDecode) -> None:
    turns = project / "turns.json"
    turns.write_text(json.dumps([{"text": "First."}]))
    assert decode_cmd("run", "--model", f"script:{turns}", "one", cwd=project).returncode == 0
    first = load_session(find_session(project))

    done = decode_cmd("run", "--resume", "two", cwd=project)  # the session's own model: its script starts over

    assert done.returncode == 0, done.stderr
    assert done.stdout == "First.\n"
    resumed = load_session(find_session(project))
    assert (resumed.session_id, resumed.turns) == (first.session_id, 2)
    assert f"--resume {first.session_id}" in done.stderr


def test_resume_naming_a_session_without_a_task_is_a_usage_error(project: Path, decode_cmd: RunDecode) -> None:
    turns = project / "turns.json"
    turns.write_text(json.dumps([{"text": "First."}]))
    assert decode_cmd("run", "--model", f"script:{turns}", "one", cwd=project).returncode == 0
    session_id = load_session(find_session(project)).session_id

    done = decode_cmd("run", "--resume", session_id, cwd=project)

    assert done.returncode == 2
    assert f'decode run --resume {session_id} "TASK"' in done.stderr


def test_run_dash_h_prints_the_help(project: Path, decode_cmd: RunDecode) -> None:
    done = decode_cmd("run", "-h", cwd=project)
    assert done.returncode == 0
    assert "Usage: decode run" in done.stdout
    assert "--resume [ID]" in done.stdout
