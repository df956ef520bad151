"""`run_task` really runs: a real `decode run` subprocess, a real git repository as `--repo`, a
scripted model that writes a file; and `attempts` fanned out over two such runs at once.

Modal's cloud is the one thing replaced: `run_task.local` runs the function body here, and the
attempts' runner calls that same body in threads instead of spawning Modal calls.
"""

import json
import subprocess
from pathlib import Path

import pytest
from rich.console import Console

from decode.commands.remote import attempts_table
from decode.remote.attempts import COLUMNS, run_attempts
from decode.remote.runners import LocalRunner
from decode.remote.task import RunOptions

pytestmark = pytest.mark.integration


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository with one commit on main, as a user's checkout would be."""
    path = tmp_path / "repo"
    subprocess.run(["git", "init", "-q", "-b", "main", str(path)], check=True)
    git(path, "config", "user.email", "dev@example.com")
    git(path, "config", "user.name", "Dev")
    (path / "README.md").write_text("# demo\n")
    git(path, "add", ".")
    git(path, "commit", "-qm", "start")
    return path


@pytest.fixture
def script(tmp_path: Path) -> Path:
    """The model: write hello.txt (two lines), then say done."""
    path = tmp_path / "turns.json"
    write = {"name": "write", "args": {"path": "hello.txt", "content": "hello\nworld\n"}}
    path.write_text(json.dumps([{"tool_calls": [write]}, {"text": "wrote hello.txt"}]))
    return path


def test_run_task_local_runs_decode_and_pushes_a_branch(repo: Path, script: Path) -> None:
    from decode.remote.app import app
    from decode.remote.definition import functions

    run_task = functions(app)["run_task"]
    result = run_task.local("write hello.txt", str(repo), model=f"script:{script}")

    assert result["type"] == "result"
    assert (result["exit_code"], result["is_error"], result["result"]) == (0, False, "wrote hello.txt")
    assert result["usage"]["requests"] == result["num_requests"] == 2
    branch = result["handback"]["branch"]
    assert branch == f"decode/{result['session_id']}"
    assert result["handback"]["files"] == 1
    assert result["diff"] == {"files": 1, "insertions": 2, "deletions": 0}
    assert git(repo, "show", f"{branch}:hello.txt") == "hello\nworld\n"
    assert git(repo, "branch", "--show-current").strip() == "main"  # the checkout is untouched
    assert not (repo / "hello.txt").exists()


def test_a_run_that_cannot_start_comes_back_as_an_error_result(tmp_path: Path, script: Path) -> None:
    from decode.remote.task import run_remote_task

    result = run_remote_task("t", str(tmp_path / "no-such-repo"), RunOptions(model=f"script:{script}"))
    assert result["is_error"] is True
    assert result["exit_code"] != 0
    assert result["diff"] == {"files": 0, "insertions": 0, "deletions": 0}


def test_two_attempts_run_at_once_and_compare_in_a_table(repo: Path, script: Path) -> None:
    results = run_attempts(LocalRunner(), 2, "write hello.txt", str(repo), RunOptions(model=f"script:{script}"))

    assert [r["exit_code"] for r in results] == [0, 0]
    branches = [r["handback"]["branch"] for r in results]
    assert len(set(branches)) == 2  # one branch per attempt, both in the repository
    for branch in branches:
        assert git(repo, "show", f"{branch}:hello.txt") == "hello\nworld\n"

    console = Console(width=160, record=True)
    console.print(attempts_table(results))
    text = console.export_text()
    for column in COLUMNS:
        assert column in text
    for branch in branches:
        assert branch in text
    assert text.count("1 files +2 -0") == 2


def test_the_push_token_and_modal_credentials_never_reach_the_run(
    repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The agent's own bash command prints its environment: none of the three secrets is there."""
    from decode.remote.task import run_remote_task

    monkeypatch.setenv("DECODE_REMOTE_GIT_TOKEN", "ghp_push_secret")
    monkeypatch.setenv("MODAL_TOKEN_ID", "ak-modal-id")
    monkeypatch.setenv("MODAL_TOKEN_SECRET", "as-modal-secret")
    turns = tmp_path / "env.json"
    turns.write_text(json.dumps([{"tool_calls": [{"name": "bash", "args": {"command": "env"}}]}, {"text": "ok"}]))
    session = tmp_path / "session"
    session.mkdir()
    result = run_remote_task(
        "print env", str(repo), RunOptions(model=f"script:{turns}", permission_mode="bypass"), session
    )
    assert result["exit_code"] == 0
    logs = "".join(path.read_text() for path in (session / ".decode" / "sessions").rglob("*.jsonl"))
    assert "PATH=" in logs  # the command ran and its output is in the session log
    for secret in ("ghp_push_secret", "ak-modal-id", "as-modal-secret"):
        assert secret not in logs


def test_decode_remote_attempts_local_prints_the_table_and_each_branch_lands(repo: Path, script: Path) -> None:
    """The command itself, as a user runs it: `--local` needs no Modal token."""
    import os
    import sys

    env = {k: v for k, v in os.environ.items() if not k.startswith("MODAL_")}
    argv = [sys.executable, "-m", "decode", "remote", "attempts", "2", "write hello.txt", "--repo", str(repo)]
    done = subprocess.run(
        [*argv, "--local", "-m", f"script:{script}"],
        capture_output=True,
        text=True,
        env=env,
        cwd=repo.parent,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    header = next(line for line in done.stdout.splitlines() if "attempt" in line and "branch" in line)
    assert [cell.strip() for cell in header.strip("┃ ").split("┃")] == list(COLUMNS)
    branches = git(repo, "branch", "--list", "decode/*").split()
    assert len(branches) == 2
    for branch in branches:
        assert branch in done.stdout
