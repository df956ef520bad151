"""decode in a git checkout: what it writes for itself never shows in `git status` (issue 31)."""

import json
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


def test_a_run_in_a_fresh_checkout_leaves_git_status_clean(project: Path, decode_cmd) -> None:
    git(project, "init", "-q")
    turns = project.parent / "turns.json"
    turns.write_text(json.dumps([{"text": "Hello."}]))
    done = decode_cmd("run", "--model", f"script:{turns}", "hi", cwd=project)
    assert done.returncode == 0, done.stderr
    assert list((project / ".decode" / "sessions").glob("*.jsonl"))  # it saved the session…
    assert git(project, "status", "--porcelain", "--untracked-files=all") == ""  # …and git sees nothing
    assert not (project / ".gitignore").exists()
