"""Issue 26: each `decode run` failure names its real cause on one line, with exit code 2."""

import json
import os
import subprocess
from pathlib import Path

import pytest

from tests.integration.conftest import DECODE, RunDecode

pytestmark = pytest.mark.integration


@pytest.fixture
def hello(project: Path) -> str:
    turns = project / "turns.json"
    turns.write_text(json.dumps([{"text": "hello"}]))
    return f"script:{turns}"


def test_no_task_and_stdin_closed_is_a_usage_error(project: Path, hello: str) -> None:
    # `<&-`: no stdin at all (Python's sys.stdin is None), as a service manager may start it.
    done = subprocess.run(
        ["sh", "-c", 'exec "$0" run --model "$1" <&-', DECODE, hello],
        cwd=project,
        env=os.environ,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "Missing argument 'TASK' (stdin is closed)." in done.stderr
    assert "Traceback" not in done.stderr


def test_repo_on_a_plain_folder_says_it_is_not_a_git_repository(
    project: Path, hello: str, decode_cmd: RunDecode
) -> None:
    (project / "plain").mkdir()
    done = decode_cmd("run", "--model", hello, "--repo", "plain", "hi", cwd=project)
    assert done.returncode == 2, done.stderr
    assert "is not a git repository" in done.stderr
    assert "does not exist" not in done.stderr


def test_a_bad_kitaru_task_id_names_the_setting_and_its_value(project: Path, hello: str, decode_cmd: RunDecode) -> None:
    env = {"KITARU_TASK_ID": "task-7", "KITARU_API_URL": "http://127.0.0.1:9"}
    done = decode_cmd("run", "--model", hello, "hi", cwd=project, env=env)
    assert done.returncode == 2, done.stderr
    assert "invalid setting KITARU_TASK_ID = 'task-7'" in done.stderr
    assert done.stderr.count("\n") == 1
