"""Lesson 19's build-along track: the Workspace's HEAD read as data, host git kept private, the hand-back.

`make lesson-check N=19` runs these against your copy (`make lesson-start N=19`); each test's first
docstring line is the behaviour it reports.
"""

import subprocess
from pathlib import Path

import pytest

from decode.sandbox.handback import Outcome, hand_back
from decode.sandbox.host_git import git_environment
from decode.sandbox.workspace import WorkspaceError, open_workspace, read_head


def sh(*argv: str, cwd: Path) -> str:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture
def source(tmp_path: Path) -> Path:
    repo = tmp_path / "source"
    repo.mkdir()
    sh("git", "init", "-q", "-b", "main", cwd=repo)
    (repo / "README.md").write_text("# demo\n")
    sh("git", "add", "README.md", cwd=repo)
    sh("git", "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "First", cwd=repo)
    return repo


def test_head_is_read_from_the_files_following_refs(source: Path) -> None:
    """HEAD is read from .git's files: a ref is followed to its commit; an unborn branch has none."""
    git_dir = source / ".git"
    assert read_head(git_dir) == sh("git", "rev-parse", "HEAD", cwd=source)
    (git_dir / "HEAD").write_text("ref: refs/heads/unborn\n")
    assert read_head(git_dir) is None


def test_a_head_pointing_outside_the_repository_is_refused(source: Path) -> None:
    """A HEAD naming a ref outside .git, or a .git that is a symlink, is a WorkspaceError."""
    git_dir = source / ".git"
    (git_dir / "HEAD").write_text("ref: refs/../../../etc/passwd\n")
    with pytest.raises(WorkspaceError):
        read_head(git_dir)
    (source / "link").symlink_to(git_dir)
    with pytest.raises(WorkspaceError):
        read_head(source / "link")


def test_host_git_runs_without_the_workspaces_locating_variables_or_config() -> None:
    """Host git loses GIT_DIR-like variables and decode's keys, never prompts, and privately reads no config."""
    base = {"PATH": "/bin", "GIT_DIR": "/evil", "GIT_CONFIG_KEY_0": "core.fsmonitor", "DECODE_KEY": "k"}
    env = git_environment(base, private=True, work_tree=Path("/w"), drop=frozenset({"DECODE_KEY"}))
    assert env["PATH"] == "/bin"
    assert "GIT_DIR" not in env
    assert "GIT_CONFIG_KEY_0" not in env
    assert "DECODE_KEY" not in env
    assert (env["GIT_TERMINAL_PROMPT"], env["GIT_CONFIG_NOSYSTEM"], env["GIT_WORK_TREE"]) == ("0", "1", "/w")


async def test_the_work_is_handed_back_as_a_branch_of_the_source(tmp_path: Path, source: Path) -> None:
    """The Workspace's work is pushed to the source as decode/<session>; the source's checkout is untouched."""
    workspace = open_workspace(tmp_path / "home", str(source), "a1b2c3d4")
    (workspace.path / "change.txt").write_text("the agent's work\n")
    result = await hand_back(workspace)
    assert result.outcome is Outcome.SHIPPED
    assert result.files == ("A change.txt",)
    assert sh("git", "show", "decode/a1b2c3d4:change.txt", cwd=source) == "the agent's work"
    assert sh("git", "status", "--short", cwd=source) == ""
    assert sh("git", "branch", "--show-current", cwd=source) == "main"


async def test_a_second_hand_back_with_nothing_new_ships_nothing(tmp_path: Path, source: Path) -> None:
    """A hand-back with no change ships nothing and says so."""
    workspace = open_workspace(tmp_path / "home", str(source), "a1b2c3d4")
    assert (await hand_back(workspace)).outcome is Outcome.NOTHING
    (workspace.path / "change.txt").write_text("work\n")
    assert (await hand_back(workspace)).outcome is Outcome.SHIPPED
    again = await hand_back(workspace)
    assert (again.outcome, again.already) == (Outcome.NOTHING, True)
