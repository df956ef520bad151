"""Lesson 19's exercise: the Workspace's files as a git tree, read by a repository of your own."""

import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from course import Verdict, check

CLEAN = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null", "PATH": "/usr/bin:/bin", "HOME": "/nonexistent"}


def _git(*argv: str, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(["git", *argv], cwd=cwd, capture_output=True, text=True, check=True, env=env or CLEAN)
    return done.stdout.strip()


def _planted(folder: Path) -> tuple[Path, Path]:
    """A clone whose `.git` names three programs that leave a mark in `marks` when they run."""
    source, workspace, marks = folder / "source", folder / "workspace", folder / "marks"
    source.mkdir()
    marks.mkdir()
    _git("init", "-q", "-b", "main", cwd=source)
    (source / "README.md").write_text("# demo\n")
    (source / ".gitattributes").write_text("*.txt filter=lfs2\n")
    _git("add", ".", cwd=source)
    _git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "First", cwd=source)
    _git("clone", "-q", "--no-hardlinks", str(source), str(workspace), cwd=folder)
    with (workspace / ".git" / "config").open("a") as config:  # what the agent may write inside the sandbox
        config.write(f'[core]\n\tfsmonitor = "touch {marks}/fsmonitor; false"\n')
        config.write(f'[filter "lfs2"]\n\tclean = "touch {marks}/filter; cat"\n')
    hook = workspace / ".git" / "hooks" / "post-index-change"
    hook.write_text(f"#!/bin/sh\ntouch {marks}/hook\n")
    hook.chmod(0o755)
    (workspace / "change.txt").write_text("the agent's work\n")
    return workspace, marks


def _expected(workspace: Path, folder: Path) -> str:
    """The tree of `workspace`'s files, computed from copies of them (no `.git` at all)."""
    copy = folder / "expected"
    copy.mkdir()
    for path in workspace.iterdir():
        if path.is_file():
            (copy / path.name).write_bytes(path.read_bytes())
    _git("init", "-q", cwd=copy)
    _git("add", "-A", cwd=copy)
    return _git("write-tree", cwd=copy)


def check_tree_of(tree_of: Callable[[Path, Path], str]) -> Verdict:
    """`tree_of(workspace, scratch)`: the tree of the Workspace's files; none of its planted programs runs."""

    def test() -> None:
        with tempfile.TemporaryDirectory(prefix="decode-exercise19-") as name:
            folder = Path(name).resolve()
            workspace, marks = _planted(folder)
            own = folder / "own"
            own.mkdir()
            tree = tree_of(workspace, own).strip()
            ran = sorted(path.name for path in marks.iterdir())
            assert not ran, f"the Workspace's programs ran on this machine: {ran} (git read the Workspace's .git)"
            assert tree == _expected(workspace, folder), (
                f"{tree!r} is not the tree of the Workspace's files (README.md, .gitattributes, change.txt)"
            )

    return check("the Workspace's files as a tree, and none of its programs run", test)
