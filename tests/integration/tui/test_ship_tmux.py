"""`decode --repo SRC --sandbox bwrap` in a real terminal: `/ship` pushes the branch, leaving hands back the rest."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.integration.conftest import Terminal

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (apt install bubblewrap)"),
]


def git(cwd: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    return done.stdout.strip()


def test_ship_and_leaving_hand_the_work_back_from_a_bwrap_session(
    terminal: Terminal, project: Path, tmp_path: Path, decode: str
) -> None:
    source = tmp_path / "source"
    source.mkdir()
    git(source, "init", "-q", "-b", "main")
    (source / "a.txt").write_text("a\n")
    git(source, "add", "a.txt")
    git(source, "-c", "user.name=You", "-c", "user.email=you@x", "commit", "-qm", "first")
    turns = project / "turns.json"
    write = [{"name": "bash", "args": {"command": "echo one > one.txt"}}]
    later = [{"name": "bash", "args": {"command": "echo two > two.txt"}}]
    turns.write_text(
        json.dumps([{"tool_calls": write}, {"text": "Wrote one."}, {"tool_calls": later}, {"text": "Wrote two."}])
    )
    command = f"{decode} --repo {source} --sandbox bwrap --permission-mode bypass --model script:{turns}"
    terminal.start(f"{command}; echo decode-exited-$?; sleep 60", project, size=(160, 40))
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")

    terminal.submit("write one")
    terminal.wait_for_text("Wrote one.")
    terminal.submit("/ship")
    screen = terminal.wait_for_text("— 1 commit, 1 file")

    branch = screen.split("hand-back: shipped ", 1)[1].split(" ", 1)[0]
    assert git(source, "show", f"{branch}:one.txt") == "one"
    terminal.submit("write two")
    terminal.wait_for_text("Wrote two.")
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")
    assert "— 2 commits, 2 files" in terminal.screen()
    assert git(source, "show", f"{branch}:two.txt") == "two"
    assert git(source, "status", "--porcelain") == ""  # the source's checkout: untouched
