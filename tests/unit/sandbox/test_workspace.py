"""Reading what the sandbox left in the Workspace's `.git/` as data, and naming the source."""

import subprocess
from pathlib import Path

import pytest

from decode.sandbox.workspace import Workspace, WorkspaceError, is_url, read_head, resolve_source

SHA = "0123456789abcdef0123456789abcdef01234567"
OTHER = "89abcdef0123456789abcdef0123456789abcdef"


@pytest.fixture
def git_dir(tmp_path: Path) -> Path:
    path = tmp_path / ".git"
    (path / "refs" / "heads").mkdir(parents=True)
    return path


def test_head_through_a_loose_branch(git_dir: Path) -> None:
    (git_dir / "HEAD").write_text("ref: refs/heads/main\n")
    (git_dir / "refs" / "heads" / "main").write_text(SHA + "\n")

    assert read_head(git_dir) == SHA


def test_head_through_a_packed_branch_and_a_detached_head(git_dir: Path) -> None:
    (git_dir / "HEAD").write_text("ref: refs/heads/feature/x\n")
    (git_dir / "packed-refs").write_text(
        f"# pack-refs with: peeled\n{OTHER} refs/heads/main\n{SHA} refs/heads/feature/x\n"
    )

    assert read_head(git_dir) == SHA
    (git_dir / "HEAD").write_text(OTHER)
    assert read_head(git_dir) == OTHER


def test_an_unborn_branch_has_no_commit(git_dir: Path) -> None:
    (git_dir / "HEAD").write_text("ref: refs/heads/main\n")

    assert read_head(git_dir) is None


@pytest.mark.parametrize(
    "head",
    ["ref: refs/heads/../../../etc/passwd", "ref: /etc/passwd", "ref: HEAD", "ref: refs/heads/x.lock", "garbage"],
)
def test_a_head_that_names_anything_else_is_refused(git_dir: Path, head: str) -> None:
    (git_dir / "HEAD").write_text(head)

    with pytest.raises(WorkspaceError, match="HEAD"):
        read_head(git_dir)


def test_links_are_not_followed(git_dir: Path, tmp_path: Path) -> None:
    (tmp_path / "outside").write_text(SHA)
    (git_dir / "HEAD").write_text("ref: refs/heads/main\n")
    (git_dir / "refs" / "heads" / "main").symlink_to(tmp_path / "outside")
    assert read_head(git_dir) is None  # a linked ref is not read: no commit there
    (git_dir / "HEAD").unlink()
    (git_dir / "HEAD").symlink_to(tmp_path / "outside")
    with pytest.raises(WorkspaceError, match="cannot read"):
        read_head(git_dir)
    linked = tmp_path / "linked.git"
    linked.symlink_to(git_dir)
    with pytest.raises(WorkspaceError, match="not a git directory"):
        read_head(linked)


@pytest.mark.parametrize(
    ("repo", "url"),
    [
        ("https://github.com/o/r.git", True),
        ("ssh://git@host/r", True),
        ("git@github.com:o/r.git", True),
        ("../r", False),
        ("/abs/r", False),
        ("r:with-colon", False),
    ],
)
def test_urls_and_paths(repo: str, url: bool) -> None:
    assert is_url(repo) is url


def test_a_path_source_is_made_absolute_from_the_launch_directory(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "--quiet", str(tmp_path / "src")], check=True)
    home = tmp_path / "home"
    home.mkdir()

    assert resolve_source("../src", home) == str(tmp_path / "src")
    assert resolve_source("https://example.com/r.git", home) == "https://example.com/r.git"
    with pytest.raises(WorkspaceError, match="no such directory"):
        resolve_source("../missing", home)
    with pytest.raises(WorkspaceError, match="empty"):
        resolve_source("  ", home)


def test_a_plain_folder_is_named_as_not_a_git_repository(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    with pytest.raises(WorkspaceError, match=r"^--repo plain: .*/plain is not a git repository"):
        resolve_source("plain", tmp_path)
    subprocess.run(["git", "init", "--quiet", "--bare", str(tmp_path / "bare.git")], check=True)
    assert resolve_source("bare.git", tmp_path) == str(tmp_path / "bare.git")


def test_the_workspace_names_its_branch_and_its_neighbours(tmp_path: Path) -> None:
    workspace = Workspace(tmp_path / ".decode" / "workspaces" / "3f2a9c1b", "/src", "3f2a9c1b", SHA)

    assert workspace.branch == "decode/3f2a9c1b"
    assert workspace.handback_repository == tmp_path / ".decode" / "workspaces" / "3f2a9c1b.git"
    assert workspace.record == tmp_path / ".decode" / "workspaces" / "3f2a9c1b.json"
