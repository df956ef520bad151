"""Paths stay inside the Workspace: `..`, outside absolute paths and escaping symlinks are refused.

Symlinks are followed by `executor.realpath`: every test runs against both executors.
"""

from pathlib import Path

import pytest
from pydantic_ai import ModelRetry

from decode.entities.executor import CommandExecutor
from decode.tools.paths import display_path, resolve_path


@pytest.fixture
def executor(executor: CommandExecutor, workspace: Path) -> CommandExecutor:
    (workspace / "src").mkdir()
    (workspace / "src/a.py").write_text("")
    return executor


async def test_relative_and_inside_absolute_paths_resolve(executor: CommandExecutor, workspace: Path) -> None:
    assert await resolve_path(executor, "src/a.py") == executor.workspace / "src/a.py"
    assert await resolve_path(executor, str(workspace / "src/a.py")) == executor.workspace / "src/a.py"
    assert await resolve_path(executor, "src/../src/a.py") == executor.workspace / "src/a.py"
    assert await resolve_path(executor, "new/file.txt") == executor.workspace / "new/file.txt"


@pytest.mark.parametrize("raw", ["../outside.txt", "src/../../outside.txt", "/etc/passwd", "   "])
async def test_paths_leaving_the_workspace_are_refused(executor: CommandExecutor, raw: str) -> None:
    with pytest.raises(ModelRetry):
        await resolve_path(executor, raw)


async def test_symlinks_that_leave_the_workspace_are_refused(executor: CommandExecutor, workspace: Path) -> None:
    secret = workspace.parent / "secret.txt"
    secret.write_text("outside")
    (workspace / "innocent.txt").symlink_to(secret)
    (workspace / "escape").symlink_to(workspace.parent)
    with pytest.raises(ModelRetry, match=r"is a symlink to .*outside the working directory"):
        await resolve_path(executor, "innocent.txt")
    with pytest.raises(ModelRetry, match="outside the working directory"):
        await resolve_path(executor, "escape/secret.txt")


async def test_symlinks_within_the_workspace_are_followed(executor: CommandExecutor, workspace: Path) -> None:
    (workspace / "alias.py").symlink_to(workspace / "src/a.py")
    (workspace / "folder").symlink_to(workspace / "src")
    assert await resolve_path(executor, "alias.py") == executor.workspace / "src/a.py"
    assert await resolve_path(executor, "folder/new.py") == executor.workspace / "src/new.py"


def test_display_path_is_relative_to_the_workspace(executor: CommandExecutor, workspace: Path) -> None:
    assert display_path(executor, executor.workspace / "src/a.py") == "src/a.py"
    assert display_path(executor, executor.workspace) == "."
