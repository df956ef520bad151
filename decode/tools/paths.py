"""Paths the model gives, resolved inside the Workspace.

The model names files relative to the working directory (or absolute). Every tool resolves them
here: `..` that climbs out, an absolute path elsewhere, or a symlink that leads outside are all
refused with a message the model can act on. (The permissions lesson may later allow chosen
outside paths explicitly.)
"""

import posixpath
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic_ai import ModelRetry

if TYPE_CHECKING:
    from decode.entities.executor import CommandExecutor


async def resolve_path(executor: "CommandExecutor", raw: str) -> Path:
    """The real path `raw` names inside the Workspace, or a `ModelRetry` saying why not.

    Symlinks are followed by `executor.realpath`, the function the Permission Gate resolves with.
    """
    if not raw.strip():
        raise ModelRetry("The path is empty: give a file path relative to the working directory.")
    root = executor.workspace
    lexical = Path(posixpath.normpath(root / raw))  # absolute `raw` replaces `root`
    if not lexical.is_relative_to(root):
        raise ModelRetry(f"{raw} is outside the working directory {root}; only paths inside it can be used.")
    real = await executor.realpath(lexical)
    if not real.is_relative_to(root):
        raise ModelRetry(f"{raw} is a symlink to {real}, outside the working directory {root}; it cannot be used.")
    return real


def display_path(executor: "CommandExecutor", path: Path) -> str:
    """`path` as the model should write it next time: relative to the Workspace root."""
    try:
        relative = path.relative_to(executor.workspace)
    except ValueError:
        return str(path)
    return relative.as_posix() if relative.parts else "."
