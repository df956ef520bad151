"""A Session Log that came with the repository: asking git whether it tracks the log runs nothing
the repository's own files name."""

from pathlib import Path

import pytest

from decode.context.planted import came_with_repository
from tests.conftest import PLANTED_KINDS, planted_repository


@pytest.mark.parametrize("kind", PLANTED_KINDS)
def test_asking_git_whether_it_tracks_a_log_runs_no_planted_program(tmp_path: Path, kind: str) -> None:
    markers = tmp_path / "markers"
    repo = planted_repository(tmp_path, kind, markers)
    untracked = repo / "session.jsonl"
    untracked.write_text("{}\n", encoding="utf-8")

    assert came_with_repository(repo / "a.txt")
    assert not came_with_repository(untracked)
    assert sorted(p.name for p in markers.iterdir()) == []


def test_outside_git_a_link_to_a_log_decode_began_elsewhere_came_with_the_folder(tmp_path: Path) -> None:
    """A log decode began is noted by where it leads: an archive's log linked to it is the archive's."""
    from decode.config.own_files import remember_outside_checkout

    mine = tmp_path / "mine" / ".decode" / "sessions" / "20261130T081502Z_3f2a9c1b.jsonl"
    mine.parent.mkdir(parents=True)
    mine.write_text("{}\n", encoding="utf-8")
    remember_outside_checkout(mine)
    assert not came_with_repository(mine)
    archive = tmp_path / "archive" / ".decode" / "sessions"
    archive.mkdir(parents=True)
    (archive / mine.name).symlink_to(mine)
    (tmp_path / "folder-link" / ".decode").mkdir(parents=True)
    (tmp_path / "folder-link" / ".decode" / "sessions").symlink_to(mine.parent)

    assert came_with_repository(archive / mine.name)
    assert came_with_repository(tmp_path / "folder-link" / ".decode" / "sessions" / mine.name)


@pytest.mark.parametrize("planted", ["gitfile", "empty folder"])
def test_a_log_beside_a_git_that_git_refuses_came_with_the_folder(tmp_path: Path, planted: str) -> None:
    """A `.git` file pointing nowhere, or an empty `.git/`: git says "not a git repository", and a
    log there must not pass as one decode began (it would choose the mode and the sandbox)."""
    folder = tmp_path / "archive"
    (folder / ".decode" / "sessions").mkdir(parents=True)
    if planted == "gitfile":
        (folder / ".git").write_text("gitdir: /nowhere\n")
    else:
        (folder / ".git").mkdir()
    log = folder / ".decode" / "sessions" / "20261130T081502Z_3f2a9c1b.jsonl"
    log.write_text("{}\n", encoding="utf-8")
    assert came_with_repository(log)
