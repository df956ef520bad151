"""A Session Log that came with the repository: git tracks it, so whoever wrote the repository wrote it.

Resuming such a log must not let it choose what only the user chooses: the sandbox the run leaves
and the permission mode it runs in (the composition root asks `came_with_repository`).
"""

from pathlib import Path

from decode.sandbox.host_git import GitError, git_sync


def came_with_repository(log: Path) -> bool:
    """True when `log` is a file git tracks in the repository around it (`git ls-files`)."""
    if not log.is_file():
        return False
    try:
        result = git_sync("ls-files", "--error-unmatch", "--", log.name, cwd=log.parent)
    except GitError:  # no git here: nothing can be tracked
        return False
    return result.code == 0
