"""The Workspace clone and the hand-back, with real git: the branch in the source, the source untouched,
a failed push kept, nothing to ship, and what the agent planted in the Workspace's `.git/` never run."""

import asyncio
import os
import subprocess
from dataclasses import replace
from pathlib import Path

import pytest

from decode.sandbox.handback import HandBack, Outcome, hand_back
from decode.sandbox.workspace import Workspace, WorkspaceError, open_workspace
from tests.conftest import git

pytestmark = pytest.mark.integration


def untouched(source: Path) -> tuple[str, str, bytes, str]:
    """What must not change in the source: HEAD, its branches, its index (bytes), its working tree."""
    index = (source / ".git" / "index").read_bytes()
    branches = git(source, "for-each-ref", "--format=%(refname) %(objectname)", "refs/heads/main", "refs/heads/other")
    return git(source, "symbolic-ref", "HEAD"), branches, index, git(source, "status", "--porcelain", "--ignored")


@pytest.fixture
def source(tmp_path: Path) -> Path:
    """The user's repository: a commit on main, another branch, a staged and an untracked change."""
    home = Path(os.environ["HOME"])
    (home / ".gitconfig").write_text("[user]\n\tname = Host User\n\temail = host@example.com\n", encoding="utf-8")
    repo = tmp_path / "source"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "a.txt").write_text("a\n", encoding="utf-8")
    git(repo, "add", "a.txt")
    git(repo, "commit", "-qm", "first")
    git(repo, "branch", "other")
    (repo / "staged.txt").write_text("staged\n", encoding="utf-8")
    git(repo, "add", "staged.txt")
    (repo / "untracked.txt").write_text("mine\n", encoding="utf-8")
    return repo


def ship(workspace: Workspace) -> HandBack:
    return asyncio.run(hand_back(workspace))


# -- the clone ----------------------------------------------------------------------------------


def test_the_workspace_is_a_clone_under_the_harness_home_named_after_the_session(source: Path, home: Path) -> None:
    workspace = open_workspace(home, "../source", "s1")  # relative to the launch directory

    assert workspace.path == home / ".decode" / "workspaces" / "s1"
    assert workspace.source == str(source)
    assert workspace.branch == "decode/s1"
    assert workspace.base == git(source, "rev-parse", "main")
    assert (workspace.path / "a.txt").read_text() == "a\n"
    assert not (workspace.path / "untracked.txt").exists()  # a clone of the commit, not of the checkout
    assert "workspaces/" in (home / ".decode" / ".gitignore").read_text().splitlines()  # never the team's
    assert (home / ".decode" / "workspaces").stat().st_mode & 0o777 == 0o700  # your code: yours alone
    # No object file is shared with the source: the agent may write to the clone's.
    inodes = {p.stat().st_ino for p in (source / ".git" / "objects").rglob("*") if p.is_file()}
    assert not inodes & {p.stat().st_ino for p in (workspace.path / ".git" / "objects").rglob("*") if p.is_file()}


def test_a_resumed_session_reuses_its_workspace_and_refuses_another_source(
    source: Path, home: Path, tmp_path: Path
) -> None:
    first = open_workspace(home, str(source), "s1")
    (first.path / "work.txt").write_text("kept\n", encoding="utf-8")

    again = open_workspace(home, str(source), "s1")

    assert again == first
    assert (again.path / "work.txt").read_text() == "kept\n"
    other = tmp_path / "other"
    subprocess.run(["git", "init", "-q", str(other)], check=True)
    with pytest.raises(WorkspaceError, match="is a clone of"):
        open_workspace(home, str(other), "s1")


def test_a_source_that_cannot_be_cloned_is_a_clear_error_and_leaves_nothing(home: Path, tmp_path: Path) -> None:
    with pytest.raises(WorkspaceError, match="no such directory"):
        open_workspace(home, "missing", "s1")
    (tmp_path / "plain").mkdir()
    with pytest.raises(WorkspaceError, match="is not a git repository"):
        open_workspace(home, str(tmp_path / "plain"), "s1")
    (tmp_path / "broken" / ".git").mkdir(parents=True)  # looks like a repository, is none: git refuses it
    with pytest.raises(WorkspaceError, match="could not clone"):
        open_workspace(home, str(tmp_path / "broken"), "s1")
    assert not (home / ".decode" / "workspaces" / "s1").exists()


# -- the hand-back ------------------------------------------------------------------------------


def test_nothing_to_ship_does_nothing(source: Path, home: Path) -> None:
    workspace = open_workspace(home, str(source), "s1")
    before = untouched(source)

    result = ship(workspace)

    assert result.outcome is Outcome.NOTHING
    assert "nothing to ship" in result.report()[0]
    assert git(source, "branch", "--list", "decode/*") == ""
    assert untouched(source) == before


def test_the_work_comes_back_as_a_branch_with_the_models_commits_and_the_source_untouched(
    source: Path, home: Path
) -> None:
    workspace = open_workspace(home, str(source), "s1")
    before = untouched(source)
    (workspace.path / "model.txt").write_text("committed by the model\n", encoding="utf-8")
    git(workspace.path, "add", "model.txt")
    git(workspace.path, "-c", "user.name=Model", "-c", "user.email=m@x", "commit", "-qm", "the model's commit")
    (workspace.path / "a.txt").write_text("changed, not committed\n", encoding="utf-8")
    (workspace.path / "new.txt").write_text("new\n", encoding="utf-8")

    result = ship(workspace)

    assert result.outcome is Outcome.SHIPPED, result.report()
    assert git(source, "show", "decode/s1:a.txt") == "changed, not committed"
    assert git(source, "show", "decode/s1:new.txt") == "new"
    assert git(source, "log", "--format=%s|%an", "main..decode/s1").splitlines() == [
        "decode: the work of session s1|Host User",  # the host's identity, from its global config
        "the model's commit|Model",
    ]
    assert untouched(source) == before
    assert (source / "untracked.txt").read_text() == "mine\n"
    report = "\n".join(result.report())
    assert "shipped decode/s1 — 2 commits, 3 files" in report
    assert "A new.txt" in report
    assert "M a.txt" in report
    assert str(source) in report


def test_a_second_hand_back_continues_the_branch_and_a_third_has_nothing_new(source: Path, home: Path) -> None:
    workspace = open_workspace(home, str(source), "s1")
    (workspace.path / "one.txt").write_text("1\n", encoding="utf-8")
    first = ship(workspace)
    (workspace.path / "two.txt").write_text("2\n", encoding="utf-8")

    second = ship(workspace)
    third = ship(workspace)

    assert second.outcome is Outcome.SHIPPED
    assert git(source, "merge-base", "--is-ancestor", first.tip, "decode/s1") == ""  # a fast-forward
    assert git(source, "show", "decode/s1:two.txt") == "2"
    assert third.outcome is Outcome.NOTHING
    assert third.already
    assert "nothing new to ship" in third.report()[0]


def test_the_models_commits_alone_are_shipped_as_they_are(source: Path, home: Path) -> None:
    workspace = open_workspace(home, str(source), "s1")
    (workspace.path / "b.txt").write_text("b\n", encoding="utf-8")
    git(workspace.path, "add", "b.txt")
    git(workspace.path, "-c", "user.name=Model", "-c", "user.email=m@x", "commit", "-qm", "only this")

    result = ship(workspace)

    assert result.tip == git(workspace.path, "rev-parse", "HEAD")
    assert git(source, "log", "--format=%s", "main..decode/s1") == "only this"


@pytest.mark.parametrize("how", ["refused by the source", "source gone", "unreachable URL"])
def test_a_failed_push_keeps_the_branch_and_says_where(source: Path, home: Path, how: str) -> None:
    workspace = open_workspace(home, str(source), "s1")
    (workspace.path / "work.txt").write_text("precious\n", encoding="utf-8")
    if how == "refused by the source":
        hook = source / ".git" / "hooks" / "pre-receive"
        hook.write_text("#!/bin/sh\necho 'no pushes today' >&2\nexit 1\n", encoding="utf-8")
        hook.chmod(0o755)
    elif how == "source gone":
        source.rename(source.with_name("moved"))
    else:
        workspace = replace(workspace, source="http://127.0.0.1:9/nothing.git")

    result = ship(workspace)

    assert result.outcome is Outcome.KEPT
    repo = workspace.handback_repository
    assert git(repo, "show", f"{result.tip}:work.txt") == "precious"
    assert git(repo, "rev-parse", "refs/heads/decode/s1") == result.tip
    report = "\n".join(result.report())
    assert f"the branch decode/s1 is kept in {repo}" in report
    assert f"git --git-dir={repo} push" in report
    if how == "refused by the source":
        assert "no pushes today" in report
        (source / ".git" / "hooks" / "pre-receive").unlink()
        retried = ship(workspace)  # nothing new, but never pushed: pushed now
        assert retried.outcome is Outcome.SHIPPED
        assert retried.tip == result.tip
        assert git(source, "show", "decode/s1:work.txt") == "precious"


# -- what the agent planted in the Workspace ------------------------------------------------------


def plant(workspace: Path, marker: Path, source: Path) -> None:
    """Everything in a repository's own files that makes git run a program, each touching `marker`-NAME."""
    git_dir = workspace / ".git"
    evil_hooks = git_dir / "evil-hooks"
    evil_hooks.mkdir()
    for name in (
        "pre-commit",
        "post-commit",
        "pre-push",
        "reference-transaction",
        "post-index-change",
        "post-checkout",
    ):
        for folder in (evil_hooks, git_dir / "hooks"):
            hook = folder / name
            hook.write_text(f"#!/bin/sh\ntouch {marker}-hook-{name}\n", encoding="utf-8")
            hook.chmod(0o755)
    (git_dir / "included").write_text(f'[core]\n\tfsmonitor = "touch {marker}-included; false"\n', encoding="utf-8")
    with (git_dir / "config").open("a", encoding="utf-8") as config:
        config.write(
            f'[core]\n\tfsmonitor = "touch {marker}-fsmonitor; false"\n\thooksPath = {evil_hooks}\n'
            f'\tsshCommand = "touch {marker}-ssh; false"\n\tpager = "touch {marker}-pager; cat"\n'
            f"[include]\n\tpath = included\n"
            f'[filter "evil"]\n\tclean = "touch {marker}-filter; cat"\n\tprocess = "touch {marker}-process"\n'
            f'[diff "evil"]\n\ttextconv = "touch {marker}-textconv; cat"\n'
            f'[diff]\n\texternal = "touch {marker}-diff"\n'
            f'[credential]\n\thelper = "!touch {marker}-credential"\n'
            f"[protocol]\n\tallow = always\n"
            f'[url "ext::sh -c touch% {marker}-ext"]\n\tinsteadOf = {source}\n'
        )
    (workspace / ".gitattributes").write_text("* filter=evil diff=evil\n", encoding="utf-8")
    (workspace / "planted.txt").write_text("the agent's change\n", encoding="utf-8")


def fired(marker: Path) -> list[str]:
    return sorted(p.name for p in marker.parent.iterdir() if p.name.startswith(marker.name))


def test_nothing_the_agent_planted_in_the_workspaces_git_runs_on_the_host(
    source: Path, home: Path, tmp_path: Path
) -> None:
    workspace = open_workspace(home, str(source), "s1")
    marker = tmp_path / "fired"
    plant(workspace.path, marker, source)
    # The user's own filter driver (as git-lfs installs one) must not run on what the agent wrote either.
    user_config = Path(os.environ["HOME"]) / ".gitconfig"
    with user_config.open("a", encoding="utf-8") as config:
        config.write(f'[filter "evil"]\n\tclean = "touch {marker}-user-filter; cat"\n')

    result = ship(workspace)

    assert result.outcome is Outcome.SHIPPED, result.report()
    assert git(source, "show", "decode/s1:planted.txt") == "the agent's change"
    assert fired(marker) == []


def test_the_planted_workspace_does_run_programs_under_a_naive_git(source: Path, home: Path, tmp_path: Path) -> None:
    """The control: the plant above is live. `git status` in the Workspace, as a naive hand-back would run it."""
    workspace = open_workspace(home, str(source), "s1")
    marker = tmp_path / "fired"
    plant(workspace.path, marker, source)

    subprocess.run(["git", "status"], cwd=workspace.path, capture_output=True, check=False)
    assert {"fired-included", "fired-process"} <= set(fired(marker))  # fsmonitor, the filter driver
    (workspace.path / ".gitattributes").unlink()  # else the filter fails every command
    commit = ["git", "-c", "user.name=n", "-c", "user.email=n@x", "commit", "--allow-empty", "-qm", "naive"]
    subprocess.run(commit, cwd=workspace.path, capture_output=True, check=False)
    subprocess.run(["git", "push", "origin", "HEAD:refs/heads/x"], cwd=workspace.path, capture_output=True, check=False)
    assert {"fired-hook-pre-commit", "fired-hook-post-commit", "fired-ext"} <= set(fired(marker))


def test_a_git_directory_replaced_by_a_link_is_refused(source: Path, home: Path, tmp_path: Path) -> None:
    workspace = open_workspace(home, str(source), "s1")
    elsewhere = tmp_path / "elsewhere.git"
    (workspace.path / ".git").rename(elsewhere)
    (workspace.path / ".git").symlink_to(elsewhere)

    result = ship(workspace)

    assert result.outcome is Outcome.FAILED
    assert "not a git directory" in result.error
    assert git(source, "branch", "--list", "decode/*") == ""


@pytest.mark.parametrize("head", ["ref: refs/heads/../../../../etc/hostname", "ref: HEAD", "not a ref"])
def test_a_head_that_points_outside_the_repository_is_refused(source: Path, home: Path, head: str) -> None:
    workspace = open_workspace(home, str(source), "s1")
    (workspace.path / ".git" / "HEAD").write_text(head + "\n", encoding="utf-8")

    result = ship(workspace)

    assert result.outcome is Outcome.FAILED
    assert "HEAD" in result.error


def test_bwraps_empty_placeholders_are_not_shipped(source: Path, home: Path) -> None:
    """While a sandboxed process runs, bwrap keeps empty files where protected names did not exist."""
    workspace = open_workspace(home, str(source), "s1")
    for name in (".bashrc", ".mcp.json", ".profile"):
        (workspace.path / name).touch()
    (workspace.path / ".envrc").write_text("export X=1\n", encoding="utf-8")  # not empty: someone's work
    (workspace.path / "work.txt").write_text("work\n", encoding="utf-8")

    result = ship(workspace)

    assert result.outcome is Outcome.SHIPPED
    shipped = git(source, "ls-tree", "--name-only", "decode/s1").splitlines()
    assert sorted(shipped) == [".envrc", "a.txt", "work.txt"]


def test_a_link_to_a_host_file_is_shipped_as_a_link_and_a_fifo_does_not_block(
    source: Path, home: Path, tmp_path: Path
) -> None:
    secret = tmp_path / "host-secret"
    secret.write_text("the host's secret\n", encoding="utf-8")
    workspace = open_workspace(home, str(source), "s1")
    (workspace.path / "link").symlink_to(secret)
    os.mkfifo(workspace.path / "pipe")  # `git add` reading it would wait forever

    result = ship(workspace)

    assert result.outcome is Outcome.SHIPPED
    assert git(source, "ls-tree", "decode/s1", "link").startswith("120000 ")  # a link, not the file
    assert git(source, "cat-file", "-p", "decode/s1:link") == str(secret)
    assert "pipe" not in git(source, "ls-tree", "--name-only", "decode/s1")


def test_a_broken_workspace_record_is_a_clear_error(source: Path, home: Path) -> None:
    workspace = open_workspace(home, str(source), "s1")
    workspace.record.write_text("[1, 2]", encoding="utf-8")

    with pytest.raises(WorkspaceError, match="is not a Workspace record"):
        open_workspace(home, str(source), "s1")
