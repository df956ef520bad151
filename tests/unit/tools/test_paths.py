"""Paths stay inside the Workspace: `..`, outside absolute paths and escaping symlinks are refused."""

from pathlib import Path

import pytest
from pydantic_ai import ModelRetry

from decode.tools.local import LocalExecutor
from decode.tools.paths import display_path, resolve_path


@pytest.fixture
def executor(workspace: Path) -> LocalExecutor:
    (workspace / "src").mkdir()
    (workspace / "src/a.py").write_text("")
    return LocalExecutor(workspace)


def test_relative_and_inside_absolute_paths_resolve(executor: LocalExecutor, workspace: Path) -> None:
    assert resolve_path(executor, "src/a.py") == workspace.resolve() / "src/a.py"
    assert resolve_path(executor, str(workspace / "src/a.py")) == workspace.resolve() / "src/a.py"
    assert resolve_path(executor, "src/../src/a.py") == workspace.resolve() / "src/a.py"
    assert resolve_path(executor, "new/file.txt") == workspace.resolve() / "new/file.txt"


@pytest.mark.parametrize("raw", ["../outside.txt", "src/../../outside.txt", "/etc/passwd", "   "])
def test_paths_leaving_the_workspace_are_refused(executor: LocalExecutor, raw: str) -> None:
    with pytest.raises(ModelRetry):
        resolve_path(executor, raw)


def test_symlinks_that_leave_the_workspace_are_refused(executor: LocalExecutor, workspace: Path) -> None:
    secret = workspace.parent / "secret.txt"
    secret.write_text("outside")
    (workspace / "innocent.txt").symlink_to(secret)
    (workspace / "escape").symlink_to(workspace.parent)
    with pytest.raises(ModelRetry, match=r"is a symlink to .*outside the working directory"):
        resolve_path(executor, "innocent.txt")
    with pytest.raises(ModelRetry, match="outside the working directory"):
        resolve_path(executor, "escape/secret.txt")


def test_symlinks_within_the_workspace_are_followed(executor: LocalExecutor, workspace: Path) -> None:
    (workspace / "alias.py").symlink_to(workspace / "src/a.py")
    assert resolve_path(executor, "alias.py") == workspace.resolve() / "src/a.py"


def test_display_path_is_relative_to_the_workspace(executor: LocalExecutor, workspace: Path) -> None:
    assert display_path(executor, workspace.resolve() / "src/a.py") == "src/a.py"
    assert display_path(executor, workspace.resolve()) == "."
