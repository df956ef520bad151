"""Protected paths: files inside the Workspace that no sandboxed tool or command may write.

Writable, they would be an escape. The user's own git reads the launch directory's `.git` after
the session: a planted hook, `core.fsmonitor` or `commondir` would run there, outside the
sandbox. `.decode/` holds the harness's own files (settings, permissions, sessions), `.mcp.json`
starts servers, and shell start-up files run in the user's next shell. File tools refuse them
(`SandboxExecutor`); backends that bind-mount the Workspace make them read-only inside.
"""

from pathlib import Path

PROTECTED = (
    ".git/hooks",
    ".git/config",
    ".decode",
    ".claude",  # its agents/ set the next session's tools, instructions and permission mode
    ".mcp.json",
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".zlogin",
    ".envrc",  # direnv runs it on `cd`
)
"""Paths relative to the Workspace root; a directory protects everything below it."""


def protected_paths(workspace: Path) -> list[Path]:
    """The absolute protected paths of `workspace` (existing or not), on this machine.

    `.git` itself is protected, whole, unless the Workspace is a clone decode made (`--repo`):
    the user's own git reads more than `config` and `hooks` (`commondir`, a nested repository
    staged as a gitlink brings its own config), and would run what the agent planted there in their
    next `git status`. Commands read the history; the user commits. In a clone, the agent commits,
    and hand-back reads that `.git` without trusting its config (`decode.sandbox.host_git`).
    """
    names = PROTECTED if git_writable(workspace) else (".git", *(n for n in PROTECTED if not n.startswith(".git/")))
    return [workspace / name for name in names]


def git_writable(workspace: Path) -> bool:
    """May commands write `workspace/.git`? Only in a Workspace decode cloned for a session, with a `.git` directory."""
    return workspace.parts[-3:-1] == (".decode", "workspaces") and (workspace / ".git").is_dir()


def protected_name(workspace: Path, path: Path) -> str | None:
    """The protected entry `path` (absolute, resolved) falls under, or None when it may be written.

    An entry that is one name (`.bashrc`, `.mcp.json`) is protected in any directory of the
    Workspace (a nested home, a nested project), the others only at the root.
    """
    try:
        relative = path.relative_to(workspace)
    except ValueError:
        return None
    parts = relative.parts
    if parts[:1] == (".git",) and not git_writable(workspace):
        return ".git"
    for name in PROTECTED:
        protected = Path(name).parts
        if parts[: len(protected)] == protected:
            return name
    if parts and parts[-1] in PROTECTED and "/" not in parts[-1]:
        return parts[-1]
    return None
