"""Path rules compare resolved paths, so a rule cannot be escaped by spelling.

A tool's path is made absolute against the workspace, `~` is the user's home, and then it is
resolved: `..` collapses and symlinks are followed (`Path.resolve`), so `src/../.env`,
`./link-to-env` and `/abs/project/.env` are all the same file to a rule.

Rule patterns follow Claude Code (gitignore syntax, matched by `pathspec`):

    Read(src/**)        relative to the workspace; a pattern without a slash (`.env`, `*.pem`)
                        matches at any depth below it
    Read(/src/**)       also relative to the workspace (anchored at its root)
    Read(~/.ssh/**)     relative to the home directory
    Read(//etc/**)      an absolute path

Deny rules are matched against both the resolved path and the path as written (normalised), so
a symlink cannot hide a denied name in either direction; allow rules only against the resolved
path, so a symlink inside an allowed folder cannot lend its permission to what it points at.
"""

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path, PurePosixPath

from pathspec import GitIgnoreSpec


def absolute(path: str, workspace: Path, home: Path) -> Path:
    """The path as written, made absolute and normalised, without following symlinks."""
    if path == "~" or path.startswith("~/"):
        path = str(home) + path[1:]
    return Path(os.path.normpath(workspace / path))


def resolve(path: str, workspace: Path, home: Path) -> Path:
    """The real file a path names: absolute, `..` collapsed, symlinks followed (it need not exist)."""
    return absolute(path, workspace, home).resolve()


def is_within(path: Path, root: Path) -> bool:
    """Is `path` the folder `root` or below it? Both should already be resolved."""
    return path == root or path.is_relative_to(root)


@dataclass(frozen=True)
class PathPattern:
    """A compiled path rule: a base folder and a gitignore pattern relative to it."""

    base: Path
    spec: GitIgnoreSpec

    def matches(self, path: Path) -> bool:
        if not is_within(path, self.base):
            return False
        relative = path.relative_to(self.base).as_posix()
        return self.spec.match_file(relative)


@lru_cache(maxsize=1024)
def compile_pattern(specifier: str | None, workspace: Path, home: Path) -> PathPattern:
    """Turn a rule's specifier (or None: any path at all) into a `PathPattern`."""
    if specifier is None:
        return PathPattern(Path("/"), GitIgnoreSpec.from_lines(["**"]))
    if specifier.startswith("//"):
        base, pattern = Path("/"), specifier[1:]
    elif specifier == "~" or specifier.startswith("~/"):
        base, pattern = home, "/" + specifier[2:] if specifier[2:] else "**"
    elif specifier.startswith("./"):
        base, pattern = workspace, specifier[1:]
    else:
        base, pattern = workspace, specifier
    # `../shared/**` climbs out of the base before the gitignore part starts.
    parts = PurePosixPath(pattern.lstrip("/")).parts
    climbs = 0
    while climbs < len(parts) and parts[climbs] == "..":
        climbs += 1
    if climbs:
        base = base.joinpath(*parts[:climbs])
        pattern = "/" + "/".join(parts[climbs:]) if parts[climbs:] else "**"
    return PathPattern(base.resolve(), GitIgnoreSpec.from_lines([pattern]))
