"""Protected paths: folders no mode but bypass writes without asking, whatever an allow rule covers.

    .git      at any depth: the project's repository, a nested one's, a submodule's `.git` file.
              git runs what its hooks and config name (`core.fsmonitor`, `core.hooksPath`, a
              filter driver) in the user's next `git status`.
    .decode   decode's own settings and permission rules.
    .claude   Claude Code's settings, agents and skills, which decode reads too.

A path is protected when one of its folders (or itself) has one of these names: below the
Workspace, counted from the Workspace (a `--repo` clone lives inside a `.decode/` of its own);
anywhere else, counted from `/` (`~/.decode`, another repository's `.git`). Names are compared
without regard to case, as macOS and Windows file systems do. The gate resolves symlinks before
it asks (`x -> .git/hooks` makes `x/pre-commit` protected); for a pattern word (`.gi?/config`),
a folder the pattern could match counts.

An allow rule lets a write here through only when it spells the protected folder itself
(`Edit(.claude/skills/**)`, `Bash(cp a .claude/agents/)`): `Edit(**)` or `Bash(cp:*)` is not
a grant to rewrite git's hooks.
"""

import os

from decode.permissions import paths
from decode.permissions.shell_glob import Glob, globs_overlap

PROTECTED_NAMES = (".git", ".decode", ".claude")
"""Folder (or file) names whose contents no mode but bypass writes without asking."""

WHY = (
    "in git's internals or an agent's settings (.git at any depth, .decode, .claude): "
    "only an allow rule that spells the folder lets it through"
)


def _protected_part(part: str, pattern: bool) -> bool:
    if pattern:  # bash's `.gi?` or `.[c]laude`: could it name one?
        return any(globs_overlap(part, name) for name in PROTECTED_NAMES)
    return part.lower() in PROTECTED_NAMES


def is_protected(path: str, workspace: str) -> bool:
    """Is `path` (absolute, normalised) in a protected folder, or one itself? See the module docstring."""
    pattern = isinstance(path, Glob)
    if not pattern and "/." not in path and path.startswith("/"):
        return False  # no name in it starts with a dot, below the workspace or not: most paths stop here
    relative = path[len(workspace) :] if paths.is_within(path, workspace) else path
    if not pattern and "/." not in "/" + relative:  # every protected name starts with a dot
        return False
    return any(_protected_part(part, pattern) for part in relative.split("/") if part)


def spells_protected(specifier: str) -> bool:
    """Does a rule's path (or command) name a protected folder in its own words (`.claude/skills/**`)?"""
    return any(part.lower() in PROTECTED_NAMES for word in specifier.split() for part in word.split("/"))


def git_dir_of(workspace: str) -> str | None:
    """Where the Workspace's `.git` file points (`gitdir: …`, a worktree or `--separate-git-dir`), or None."""
    dot_git = os.path.join(workspace, ".git")
    try:
        if not os.path.isfile(dot_git) or os.path.islink(dot_git):
            return None
        with open(dot_git, encoding="utf-8", errors="replace") as file:
            first = file.read(4096).partition("\n")[0]
    except OSError:
        return None
    if not first.startswith("gitdir:"):
        return None
    target = os.path.join(workspace, first.removeprefix("gitdir:").strip())
    return os.path.realpath(target)
