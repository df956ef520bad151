"""Protected paths: what no sandboxed tool or command may write, even inside the Workspace."""

from pathlib import Path

import pytest

from decode.sandbox.protected import protected_name, protected_paths


@pytest.mark.parametrize(
    ("relative", "expected"),
    [
        (".git/hooks/pre-commit", ".git/hooks"),
        (".git/hooks", ".git/hooks"),
        (".git/config", ".git/config"),
        (".decode/settings.json", ".decode"),
        (".mcp.json", ".mcp.json"),
        (".bashrc", ".bashrc"),
        ("home/user/.zshrc", ".zshrc"),  # a start-up file anywhere in the Workspace
        (".envrc", ".envrc"),
        (".git/HEAD", None),  # git's own files: commits must work
        (".git/objects/ab/cdef", None),
        ("src/app.py", None),
        ("src/.decode-notes", None),
        ("bashrc", None),
    ],
)
def test_protected_names_in_a_clone(tmp_path: Path, relative: str, expected: str | None) -> None:
    clone = tmp_path / ".decode" / "workspaces" / "s1"  # a Workspace decode cloned (`--repo`)
    (clone / ".git").mkdir(parents=True)
    assert protected_name(clone, clone / relative) == expected


@pytest.mark.parametrize("relative", [".git/HEAD", ".git/index", ".git/commondir", ".git/objects/ab/cdef", ".git"])
def test_in_the_launch_directory_all_of_git_is_protected(tmp_path: Path, relative: str) -> None:
    (tmp_path / ".git").mkdir()  # the user's own repository: its next `git status` reads all of it
    assert protected_name(tmp_path, tmp_path / relative) == ".git"
    assert tmp_path / ".git" in protected_paths(tmp_path)


def test_outside_the_workspace_is_not_this_modules_business(tmp_path: Path) -> None:
    assert protected_name(tmp_path / "ws", tmp_path / ".bashrc") is None


def test_without_a_repository_git_itself_is_protected(tmp_path: Path) -> None:
    assert protected_name(tmp_path, tmp_path / ".git" / "config") == ".git"
    assert protected_name(tmp_path, tmp_path / ".git" / "HEAD") == ".git"
    assert tmp_path / ".git" in protected_paths(tmp_path)
    assert tmp_path / ".git" / "hooks" not in protected_paths(tmp_path)
    clone = tmp_path / ".decode" / "workspaces" / "s1"
    (clone / ".git").mkdir(parents=True)
    assert clone / ".git" not in protected_paths(clone)
    assert {clone / ".git" / "hooks", clone / ".git" / "config"} <= set(protected_paths(clone))
