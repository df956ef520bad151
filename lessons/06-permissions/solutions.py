"""Reference solution to lesson 06's exercise, and a plausible wrong answer (the check rejects it)."""

import os
from pathlib import Path


def is_env_file(path: str, workspace: Path) -> bool:
    """Resolve against the workspace (`..`, symlinks), then compare with the real `.env`."""
    return os.path.realpath(workspace / path) == os.path.realpath(workspace / ".env")


def wrong_is_env_file(path: str, workspace: Path) -> bool:
    """Normalises `..` and compares names as written: a symlink to `.env` gets through."""
    return os.path.normpath(workspace / path) == os.path.normpath(workspace / ".env")
