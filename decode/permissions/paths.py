"""Path rules compare resolved paths, so a rule cannot be escaped by spelling.

A tool's path is made absolute against the workspace, `~` is the user's home, and then it is
resolved: `..` collapses and symlinks are followed (`os.path.realpath`), so `src/../.env`,
`./link-to-env` and `/abs/project/.env` are all the same file to a rule.

Rule patterns follow Claude Code (gitignore syntax, matched by `pathspec`):

    Read(src/**)        relative to the workspace; a pattern without a slash (`.env`, `*.pem`)
                        matches at any depth below it
    Read(/src/**)       also relative to the workspace (anchored at its root)
    Read(./src/**)      the same as `src/**`; `Read(.)`, `Read(./)`: the whole workspace
    Read(~/.ssh/**)     relative to the home directory (`Read(~)`: all of it)
    Read(//etc/**)      an absolute path (`Read(//)`: the whole file system)

Every settings file's relative patterns are the workspace's, the user's file included (ADR-0082).

Deny rules are matched against both the resolved path and the path as written (normalised), so
a symlink cannot hide a denied name in either direction; allow rules only against the resolved
path, so a symlink inside an allowed folder cannot lend its permission to what it points at.

Paths are plain strings here: the gate runs before every tool call, and string operations are
many times faster than `pathlib`'s.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from functools import lru_cache
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pathspec loads with the first path rule, not when decode starts
    from pathspec import GitIgnoreSpec


def absolute(path: str, workspace: str, home: str) -> str:
    """The path as written, made absolute and normalised, without following symlinks."""
    return os.path.normpath(joined(path, workspace, home))


def joined(path: str, workspace: str, home: str) -> str:
    """The path made absolute with its `..` kept: the kernel follows `link/..` to the link's parent."""
    if path == "~" or path.startswith("~/"):
        path = home + path[1:]
    return os.path.join(workspace, path)


def resolve(path: str, workspace: str, home: str) -> str:
    """The real file a path names, as the kernel finds it: symlinks followed before `..` (`link/../x`
    is beside the link's target, not beside the link); it need not exist."""
    return os.path.realpath(joined(path, workspace, home))


def local_real(path: str, workspace: str) -> str:
    """`os.path.realpath(path)`, faster below the real `workspace`: one lstat per component,
    until a missing one (nothing below it can be a link) or a link (then realpath does it all)."""
    if not path.startswith(workspace + "/"):
        return os.path.realpath(path)
    current = workspace
    for part in path[len(workspace) + 1 :].split("/"):
        current = f"{current}/{part}"
        try:
            info = os.lstat(current)
        except (FileNotFoundError, NotADirectoryError):
            return os.path.normpath(path)
        if stat.S_ISLNK(info.st_mode):
            return os.path.realpath(path)
    return os.path.normpath(path)


def is_within(path: str, root: str) -> bool:
    """Is `path` the folder `root` or below it? Both absolute and normalised."""
    return path == root or path.startswith(root.rstrip("/") + "/")


@dataclass(frozen=True)
class PathPattern:
    """A compiled path rule: a base folder and a gitignore pattern relative to it."""

    base: str
    spec: GitIgnoreSpec
    line: str = "**"  # the gitignore pattern, as written relative to `base`
    regex: re.Pattern[str] | None = None  # the one pattern's regex, when `spec` is one including pattern

    def matches(self, path: str) -> bool:
        if not is_within(path, self.base):
            return False
        relative = path[len(self.base) :].lstrip("/") or "."
        if self.regex is not None:
            return self.regex.search(relative) is not None  # what `match_file` does for one pattern, ~5x faster
        return self.spec.match_file(relative)

    def as_globs(self) -> tuple[str, ...]:
        """The files it covers as absolute patterns, `**` crossing folders (`shell.globs_overlap`):
        `secrets/**` under /w is `/w/secrets/**`; `.env`, which matches at any depth, is `/w/.env`
        and `/w/**/.env`."""
        line = self.line.rstrip("/")
        base = self.base.rstrip("/")
        if "/" in line:
            return (f"{base}/{line.lstrip('/')}",)
        return (f"{base}/{line}", f"{base}/**/{line}")


@lru_cache(maxsize=1024)
def compile_pattern(specifier: str | None, workspace: str, home: str) -> PathPattern:
    """Turn a rule's specifier (or None: any path at all) into a `PathPattern`."""
    if specifier is None:
        return _pattern("/", "**")
    if specifier.startswith("//"):
        base, pattern = "/", specifier[1:]
    elif specifier == "~" or specifier.startswith("~/"):
        base, pattern = home, "/" + specifier[2:]
    elif specifier == "." or specifier.startswith("./"):
        base, pattern = workspace, specifier[1:]
    else:
        base, pattern = workspace, specifier
    if pattern.strip("/") == "":  # `Read(./)`, `Read(~/)`, `Read(//)`: the whole folder
        pattern = "**"
    elif pattern.startswith("#"):  # a file named `#notes`, not a gitignore comment
        pattern = "\\" + pattern
    # `../shared/**` climbs out of the base before the gitignore part starts.
    parts = PurePosixPath(pattern.lstrip("/")).parts
    climbs = 0
    while climbs < len(parts) and parts[climbs] == "..":
        climbs += 1
    if climbs:
        base = os.path.join(base, *parts[:climbs])
        pattern = "/" + "/".join(parts[climbs:]) if parts[climbs:] else "**"
    return _pattern(os.path.realpath(base), pattern)


def _pattern(base: str, line: str) -> PathPattern:
    from pathspec import GitIgnoreSpec

    spec = GitIgnoreSpec.from_lines([line])
    found = [pattern for pattern in spec.patterns if pattern.include is not None]
    regex = getattr(found[0], "regex", None) if len(found) == 1 and found[0].include else None
    return PathPattern(base, spec, line, regex if isinstance(regex, re.Pattern) else None)


def names_a_file(specifier: str) -> bool:
    """Does a path rule name files, not just folders? `.env`, `*.pem`, `/cfg/.env.*` do; `src/**` does not."""
    last = specifier.rstrip("/").rsplit("/", 1)[-1]
    return last.replace("*", "").replace("?", "") != ""


def escape(path: str) -> str:
    """Escape gitignore's special characters so the rule names this one path."""
    return "".join("\\" + c if c in "*?[]!#\\" else c for c in path)
