"""The six settings files decode reads, lowest priority first, and whose each one is.

    ~/.claude/settings.json          user     Claude Code's, for every project
    ~/.decode/settings.json          user     decode's
    .claude/settings.json            project  Claude Code's, shared with the team (the repository's)
    .decode/settings.json            project  decode's
    .claude/settings.local.json      local    Claude Code's, the user's own in this project
    .decode/settings.local.json      local    decode's ("always" answers are written here)

The more specific scope wins (local over project over user), as in Claude Code; within one scope
decode's file wins over Claude Code's. A file the repository brings (`shared`) speaks for whoever
wrote the repository, not for the user: its allow rules and `defaultMode` wait for Project Trust.
That is the project scope's files and a `*.local.json` that git tracks (it came with a clone).
Outside any git checkout (a downloaded archive) nothing says who wrote a `*.local.json`: it is
the user's only while it holds exactly what decode last wrote there (`own_files`).
"""

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from decode.config import own_files, safe_read
from decode.config.harness_home import HARNESS_DIR
from decode.config.own_files import in_checkout
from decode.permissions.types import Layer

CLAUDE_DIR = Path(".claude")
_SCOPES = ((Layer.USER, "settings.json"), (Layer.PROJECT, "settings.json"), (Layer.LOCAL, "settings.local.json"))
# Nothing a repository configures runs: no fsmonitor program, no hooks (ls-files runs none), no pager.
_SAFE_GIT = ("git", "--no-pager", "-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false")


@dataclass(frozen=True)
class SettingsFile:
    """One settings file: its layer, its path, and whether the repository brought it."""

    layer: Layer
    path: Path
    shared: bool = False
    """The repository's: its allow rules and mode are in force only once the project is trusted."""


def settings_files(project: Path, home: Path | None = None) -> list[SettingsFile]:
    """The settings files to read, lowest priority first (those that do not exist included)."""
    home = home if home is not None else Path.home()
    found: list[SettingsFile] = []
    for layer, name in _SCOPES:
        base = home if layer is Layer.USER else project
        for folder in (CLAUDE_DIR, HARNESS_DIR):
            path = base / folder / name
            if layer is not Layer.USER and _same_file(path, home / folder / "settings.json"):
                continue  # started in the home directory: that file is the user's, read once
            shared = layer is Layer.PROJECT or (layer is Layer.LOCAL and path.is_file() and brought(path, home))
            found.append(SettingsFile(layer, path, shared))
    return found


def _same_file(path: Path, other: Path) -> bool:
    return os.path.realpath(path) == os.path.realpath(other)


def brought(path: Path, home: Path) -> bool:
    """Did the repository (or an archive) bring this local settings file, rather than the user?"""
    if is_tracked(path):
        return True
    return not in_checkout(path.parent) and not written_by_decode(path, home)


def written_by_decode(path: Path, home: Path) -> bool:
    """Does `path` hold exactly what decode last wrote there (`own_files.remember`)?"""
    try:
        data = safe_read.read_bytes(path, what="a settings file")  # a FIFO or /dev/zero: never a wait
    except (OSError, safe_read.UnreadableFile):
        return False
    return data is not None and own_files.wrote(path, home, data)


def is_tracked(path: Path) -> bool:
    """Does `path` come with the repository? It does when git tracks it, and also when git cannot
    say (dubious ownership, no git, a time-out) inside a repository: it fails closed.

    Asks `git ls-files --error-unmatch`, which reads the index: it runs no hook, and the options
    keep a repository's fsmonitor program and pager from running.
    """
    try:
        done = subprocess.run(
            [*_SAFE_GIT, "ls-files", "--error-unmatch", "--", path.name],
            cwd=path.parent,
            capture_output=True,
            timeout=10,
            check=False,
            # git's messages in English: "not tracked" and "no repository" are read from them.
            env={**os.environ, "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C", "LANGUAGE": ""},
        )
    except (OSError, subprocess.TimeoutExpired):
        return in_checkout(path.parent)
    if done.returncode == 0:
        return True
    error = done.stderr.decode("utf-8", errors="replace").lower()
    if "not a git repository" in error:  # a `.git` here that git refuses (a gitfile leading nowhere): fail closed
        return in_checkout(path.parent)
    return "did not match any file" not in error
