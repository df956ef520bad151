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
