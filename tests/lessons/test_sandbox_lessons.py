"""Lesson 17's sandboxes in three lessons (ADR-0144): Docker and Modal arrive with lesson 18, `--repo` and
the hand-back with lesson 19. The snapshot before each refuses what it does not have in one line; the
lesson's own snapshot runs it."""

import json
import subprocess
from pathlib import Path

import pytest

from tests.lessons.conftest import Snapshot, decode


def answering(project: Path) -> str:
    """A scripted model that writes a file, then answers: its `--model` value."""
    path = project.parent / "script.json"
    write = {"name": "write", "args": {"path": "work.txt", "content": "the agent's work\n"}}
    path.write_text(json.dumps([{"tool_calls": [write]}, {"text": "done"}]))
    return f"script:{path}"


def test_docker_arrives_with_lesson_18(snapshot: Snapshot, project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent-decode-test.sock")  # no engine answers there
    model = answering(project)
    before = decode(snapshot(17), project, "run", "--sandbox", "docker", "--model", model, "go")
    assert before.returncode == 2
    assert "the docker sandbox is not in this lesson's package: use --sandbox bwrap or none" in before.stderr
    assert not (project / "work.txt").exists()
    after = decode(snapshot(18), project, "run", "--sandbox", "docker", "--model", model, "go")
    assert after.returncode == 2
    assert "--sandbox docker: " in after.stderr  # its preflight: no CLI, or no engine at DOCKER_HOST
    assert "not in this lesson's package" not in after.stderr
    assert not (project / "work.txt").exists()  # never run unsandboxed instead


def test_repo_and_the_hand_back_arrive_with_lesson_19(snapshot: Snapshot, project: Path) -> None:
    source = project.parent / "source"
    source.mkdir()
    for argv in (["init", "-q", "-b", "main"], ["commit", "-q", "--allow-empty", "-m", "First"]):
        subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *argv], cwd=source, check=True)
    model = answering(project)
    before = decode(snapshot(18), project, "run", "--repo", str(source), "--model", model, "go")
    assert before.returncode == 2
    assert "No such option '--repo'" in before.stderr
    done = decode(
        snapshot(19), project, "run", "--repo", str(source), "--permission-mode", "bypass", "--model", model, "go"
    )
    assert done.returncode == 0, done.stderr
    assert "hand-back: shipped decode/" in done.stderr
    branches = subprocess.run(
        ["git", "branch", "--list", "decode/*", "--format=%(refname:short)"], cwd=source, capture_output=True, text=True
    ).stdout.split()
    assert len(branches) == 1
    shown = subprocess.run(["git", "show", f"{branches[0]}:work.txt"], cwd=source, capture_output=True, text=True)
    assert shown.stdout == "the agent's work\n"
    assert not (project / "work.txt").exists()  # the work went to the clone, then back as a branch
