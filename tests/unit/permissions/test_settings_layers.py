"""The six settings files, in order; a `*.local.json` git tracks is the repository's (real git)."""

import os
import subprocess
from pathlib import Path

import pytest

from decode.permissions.settings_files import add_allow_rules
from decode.permissions.settings_layers import is_tracked, settings_files
from decode.permissions.types import Layer

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]


def git(project: Path, *args: str) -> None:
    subprocess.run([*GIT, *args], cwd=project, check=True, capture_output=True)


def test_six_files_lowest_priority_first_decodes_after_claudes_in_each_scope(project: Path) -> None:
    home = Path.home()
    found = [(file.layer, file.path, file.shared) for file in settings_files(project)]
    assert found == [
        (Layer.USER, home / ".claude" / "settings.json", False),
        (Layer.USER, home / ".decode" / "settings.json", False),
        (Layer.PROJECT, project / ".claude" / "settings.json", True),
        (Layer.PROJECT, project / ".decode" / "settings.json", True),
        (Layer.LOCAL, project / ".claude" / "settings.local.json", False),
        (Layer.LOCAL, project / ".decode" / "settings.local.json", False),
    ]


def test_started_in_the_home_directory_its_files_are_read_once_as_the_users(tmp_path: Path) -> None:
    home = tmp_path / "home"
    assert [(file.layer, file.path.parent.name) for file in settings_files(home, home)] == [
        (Layer.USER, ".claude"),
        (Layer.USER, ".decode"),
        (Layer.LOCAL, ".claude"),
        (Layer.LOCAL, ".decode"),
    ]


def test_a_local_file_git_tracks_is_the_repositorys(project: Path) -> None:
    for folder in (".claude", ".decode"):
        (project / folder).mkdir()
        (project / folder / "settings.local.json").write_text("{}")
    git(project, "init", "-q")
    git(project, "add", "-f", ".claude/settings.local.json")
    git(project, "commit", "-q", "-m", "planted")
    shared = {file.path.parent.name: file.shared for file in settings_files(project) if file.layer is Layer.LOCAL}
    assert shared == {".claude": True, ".decode": False}  # the untracked one stays the user's


def test_a_staged_local_file_counts_as_tracked(project: Path) -> None:
    (project / ".decode").mkdir()
    local = project / ".decode" / "settings.local.json"
    local.write_text("{}")
    git(project, "init", "-q")
    assert not is_tracked(local)
    git(project, "add", "-f", ".decode/settings.local.json")
    assert is_tracked(local)


def test_outside_a_repository_nothing_is_tracked(project: Path) -> None:
    (project / ".decode").mkdir()
    (project / ".decode" / "settings.local.json").write_text("{}")
    assert not is_tracked(project / ".decode" / "settings.local.json")


def local_file_is_shared(project: Path) -> bool:
    [local] = [f for f in settings_files(project) if f.path == project / ".decode" / "settings.local.json"]
    return local.shared


def test_outside_a_repository_a_local_file_decode_did_not_write_is_the_archives(project: Path) -> None:
    """A downloaded archive (no .git) may ship `.decode/settings.local.json`: it must wait for trust."""
    (project / ".decode").mkdir()
    (project / ".decode" / "settings.local.json").write_text('{"permissions": {"allow": ["Bash(curl:*)"]}}')
    assert local_file_is_shared(project)


def test_outside_a_repository_what_decode_wrote_is_the_users_until_it_changes(project: Path) -> None:
    path = add_allow_rules(project, ["Bash(ls:*)"])  # the user's "always" answer
    assert not local_file_is_shared(project)
    path.write_text(path.read_text().replace("Bash(ls:*)", "Bash(curl:*)"))  # changed since: whose is it?
    assert local_file_is_shared(project)


def test_a_rule_the_user_adds_to_an_archives_file_leaves_it_the_archives(project: Path) -> None:
    (project / ".decode").mkdir()
    (project / ".decode" / "settings.local.json").write_text('{"permissions": {"allow": ["Bash(curl:*)"]}}')
    add_allow_rules(project, ["Bash(ls:*)"])
    assert local_file_is_shared(project)  # its Bash(curl:*) still waits for Project Trust


def test_inside_a_repository_an_untracked_local_file_is_the_users(project: Path) -> None:
    git(project, "init", "-q")
    (project / ".decode").mkdir()
    (project / ".decode" / "settings.local.json").write_text('{"permissions": {"allow": ["Bash(ls:*)"]}}')
    assert not local_file_is_shared(project)  # a clone cannot bring a file git does not track


def test_asking_git_runs_no_program_the_repository_configures(project: Path) -> None:
    (project / ".decode").mkdir()
    local = project / ".decode" / "settings.local.json"
    local.write_text("{}")
    git(project, "init", "-q")
    git(project, "add", "-f", ".decode/settings.local.json")
    marker = project.parent / "ran"
    planted = project / "planted.sh"
    planted.write_text(f"#!/bin/sh\ntouch {marker}\n")
    planted.chmod(0o755)
    for key in ("core.fsmonitor", "core.pager", "core.hooksPath"):
        git(project, "config", key, str(planted))
    assert is_tracked(local)
    assert not marker.exists()


def test_when_git_refuses_the_repository_a_local_file_is_the_repositorys(project: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root: the repository is handed to another user so git calls its ownership dubious")
    (project / ".claude").mkdir()
    local = project / ".claude" / "settings.local.json"
    local.write_text('{"permissions": {"allow": ["Bash(curl:*)"]}}')
    git(project, "init", "-q")
    git(project, "add", "-f", ".claude/settings.local.json")
    for path in (project, *project.rglob("*")):
        os.lchown(path, 65534, 65534)
    assert is_tracked(local)  # git answers "dubious ownership": fail closed


def test_without_git_a_local_file_inside_a_repository_is_the_repositorys(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (project / ".decode").mkdir()
    local = project / ".decode" / "settings.local.json"
    local.write_text("{}")
    git(project, "init", "-q")
    monkeypatch.setenv("PATH", str(project / "no-git-here"))
    assert is_tracked(local)
    (project / ".git").rename(project / "not-git")
    assert not is_tracked(local)


def test_outside_a_repository_a_link_to_a_file_decode_wrote_elsewhere_is_the_archives(tmp_path: Path) -> None:
    """Own Files notes a path by where it leads: an archive's `settings.local.json` (or its whole
    `.decode/`) linked to a file decode wrote in another folder must not borrow that note."""
    mine = tmp_path / "mine"
    mine.mkdir()
    add_allow_rules(mine, ["Bash(rm:*)"])  # the user's "always" there: the user's file, noted
    assert not local_file_is_shared(mine)
    linked_file, linked_folder = tmp_path / "archive-a", tmp_path / "archive-b"
    (linked_file / ".decode").mkdir(parents=True)
    (linked_file / ".decode" / "settings.local.json").symlink_to(mine / ".decode" / "settings.local.json")
    linked_folder.mkdir()
    (linked_folder / ".decode").symlink_to(mine / ".decode")

    assert local_file_is_shared(linked_file)
    assert local_file_is_shared(linked_folder)


@pytest.mark.parametrize("planted", ["gitfile", "empty folder"])
def test_a_git_that_git_refuses_leaves_a_local_file_the_folders(project: Path, planted: str) -> None:
    """An archive shipping a `.git` *file* (`gitdir: /nowhere`) or an empty `.git/` is "a checkout"
    to a look, and "not a git repository" to git: its local settings file must not pass as the user's."""
    if planted == "gitfile":
        (project / ".git").write_text("gitdir: /nowhere\n")
    else:
        (project / ".git").mkdir()
    (project / ".decode").mkdir()
    (project / ".decode" / "settings.local.json").write_text('{"permissions": {"allow": ["Bash(curl:*)"]}}')
    assert local_file_is_shared(project)
