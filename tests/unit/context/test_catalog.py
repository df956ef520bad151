"""The session catalogue: listing a directory's sessions and finding one by id or prefix."""

import logging
import os
from pathlib import Path

import pytest

from decode.context.catalog import SessionNotFoundError, find_session, list_sessions
from decode.context.session_log import SESSIONS_DIR, SessionLog
from decode.entities.usage import Usage


def saved(home: Path, histories, prompts: list[str], *, session_id: str | None = None, age_s: int = 0) -> SessionLog:
    """A session with one turn per prompt, last active `age_s` seconds ago."""
    log = SessionLog.new(home, model="script:s.json")
    if session_id is not None:
        log.header.session_id = session_id
        log.path = log.path.with_name(log.path.name.rsplit("_", 1)[0] + f"_{session_id}.jsonl")
    for prompt in prompts:
        log.append_turn(
            histories.turn(prompt, "ok"), Usage(requests=1, input_tokens=100, output_tokens=10), model="script:s.json"
        )
    stamp = log.path.stat().st_mtime - age_s
    os.utime(log.path, (stamp, stamp))
    return log


def test_no_directory_means_no_sessions(tmp_path: Path) -> None:
    assert list_sessions(tmp_path) == []
    with pytest.raises(SessionNotFoundError, match="no saved sessions"):
        find_session(tmp_path)


def test_the_listing_is_most_recent_first_with_turns_tokens_and_first_prompt(tmp_path: Path, histories) -> None:
    old = saved(tmp_path, histories, ["fix the   parser\nplease", "and the tests"], age_s=3600)
    new = saved(tmp_path, histories, ["write docs"])
    listed = list_sessions(tmp_path)
    assert [info.session_id for info in listed] == [new.session_id, old.session_id]
    assert (listed[1].turns, listed[1].tokens, listed[1].first_prompt) == (2, 220, "fix the parser please")
    assert listed[1].model == "script:s.json"


def test_a_file_that_is_not_a_session_is_skipped_with_a_warning(tmp_path: Path, histories, caplog) -> None:
    saved(tmp_path, histories, ["real"])
    (tmp_path / SESSIONS_DIR / "junk.jsonl").write_text("not json\n")
    with caplog.at_level(logging.WARNING):
        assert len(list_sessions(tmp_path)) == 1
    assert "junk.jsonl" in caplog.text


def test_sessions_are_found_by_id_by_unique_prefix_or_as_the_newest(tmp_path: Path, histories) -> None:
    first = saved(tmp_path, histories, ["a"], session_id="abc12345", age_s=60)
    second = saved(tmp_path, histories, ["b"], session_id="abd67890")
    assert find_session(tmp_path) == second.path
    assert find_session(tmp_path, "abc12345") == first.path
    assert find_session(tmp_path, "ABC1") == first.path
    with pytest.raises(SessionNotFoundError, match="ambiguous: it starts abd67890, abc12345"):
        find_session(tmp_path, "ab")
    with pytest.raises(SessionNotFoundError, match="no session 'zz'"):
        find_session(tmp_path, "zz")


@pytest.mark.parametrize("link", ["folder", "file"])
def test_another_projects_sessions_linked_in_are_not_this_projects(tmp_path: Path, histories, link: str) -> None:
    # A cloned repository's `.decode/sessions` (or a log in it) linked to another project's: `--continue`
    # would read that conversation into this one and append to it.
    other, project = tmp_path / "other", tmp_path / "project"
    theirs = saved(other, histories, ["the other project's secret plans"])
    (project / SESSIONS_DIR).parent.mkdir(parents=True)
    if link == "folder":
        (project / SESSIONS_DIR).symlink_to(other / SESSIONS_DIR)
    else:
        (project / SESSIONS_DIR).mkdir()
        (project / SESSIONS_DIR / theirs.path.name).symlink_to(theirs.path)
    assert list_sessions(project) == []
    with pytest.raises(SessionNotFoundError):
        find_session(project)
    assert len(list_sessions(other)) == 1  # the other project itself lists it
