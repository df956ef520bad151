"""Reference solution of lesson 19's exercise, and a plausible mistake that its check rejects."""

import os
import subprocess
from pathlib import Path


def tree_of(workspace: Path, scratch: Path) -> str:
    """A bare repository of our own reads the Workspace as a work tree: its `.git` is never read."""
    bare = scratch / "handback.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    env = {**os.environ, "GIT_DIR": str(bare), "GIT_WORK_TREE": str(workspace)}
    env |= {"GIT_INDEX_FILE": str(scratch / "index"), "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null"}
    subprocess.run(["git", "add", "-A"], cwd=scratch, env=env, check=True)
    return subprocess.run(
        ["git", "write-tree"], cwd=scratch, env=env, capture_output=True, text=True, check=True
    ).stdout


def wrong_tree_of(workspace: Path, scratch: Path) -> str:
    """git in the Workspace itself: its config's fsmonitor and filter, and its hook, run on this machine."""
    subprocess.run(["git", "add", "-A"], cwd=workspace, check=True)
    return subprocess.run(["git", "write-tree"], cwd=workspace, capture_output=True, text=True, check=True).stdout
