"""Session ids a script chooses (`--session-id UUID`) and forks it asks for (`--fork-session`), ADR-0129."""

import json
from pathlib import Path
from typing import Any

import pytest

from decode.config.settings import Settings
from decode.context.catalog import find_session
from decode.context.planted import lineage
from decode.context.replay import load_session
from decode.context.session_ids import (
    SessionIdError,
    check_unused,
    given_session_id,
    open_chosen,
    session_options_problem,
)
from decode.context.session_log import SessionError, SessionLog
from decode.entities.usage import Usage

UUID = "6f1c2a3b-4d5e-4f60-8a9b-0c1d2e3f4a5b"


def _settings() -> Settings:
    return Settings()


def _saved(home: Path, histories: Any, turns: int = 1) -> SessionLog:
    log = SessionLog.new(home, model="test")
    for number in range(turns):
        log.append_turn(histories.turn(f"turn {number}", f"answer {number}"), Usage(), model="test")
    log.close()
    return log


@pytest.mark.parametrize("value", [UUID, UUID.upper(), f"  {UUID}\n", "00000000-0000-0000-0000-000000000000"])
def test_a_uuid_in_either_case_is_taken_in_lower_case(value: str) -> None:
    assert given_session_id(value) == value.strip().lower()


@pytest.mark.parametrize(
    "value",
    [
        "",
        "3f2a9c1b",  # one of decode's own ids: --session-id names with UUIDs, as Claude Code
        UUID.replace("-", ""),
        f"{{{UUID}}}",
        f"urn:uuid:{UUID}",
        UUID[:-1],
        UUID + "0",
        UUID.replace("a", "g"),
        "../../etc/passwd",
        "*",
    ],
)
def test_anything_but_a_uuid_is_refused_in_one_line(value: str) -> None:
    with pytest.raises(SessionIdError, match="is not a UUID") as caught:
        given_session_id(value)
    assert "\n" not in str(caught.value)


def test_which_combinations_claude_code_takes() -> None:
    assert session_options_problem(session_id=UUID, resume=None, fork=False) == ""
    assert session_options_problem(session_id=None, resume="abc", fork=True) == ""
    assert session_options_problem(session_id=UUID, resume="", fork=True) == ""  # --continue --fork-session
    assert "add --fork-session" in session_options_problem(session_id=UUID, resume="abc", fork=False)
    assert "add --fork-session" in session_options_problem(session_id=UUID, resume="", fork=False)
    assert "needs --resume ID or --continue" in session_options_problem(session_id=None, resume=None, fork=True)
    assert "is not a UUID" in session_options_problem(session_id="nope", resume=None, fork=False)


def test_a_used_id_is_refused(tmp_path: Path, histories: Any) -> None:
    check_unused(tmp_path, UUID)  # no sessions directory yet
    session, _ = open_chosen(tmp_path, resume=None, session_id=UUID, fork=False, model="test", settings=_settings())
    check_unused(tmp_path, UUID)  # nothing written yet: not used
    session.record_turn(histories.turn("hi", "hello"), Usage())
    session.close()
    with pytest.raises(SessionIdError, match=f"session id {UUID} is already used"):
        check_unused(tmp_path, UUID)
    with pytest.raises(SessionError, match="is already used"):
        open_chosen(tmp_path, resume=None, session_id=UUID.upper(), fork=False, model="test", settings=_settings())


def test_a_named_session_is_its_uuid_everywhere_and_resumes_by_a_prefix(tmp_path: Path, histories: Any) -> None:
    session, history = open_chosen(
        tmp_path, resume=None, session_id=UUID.upper(), fork=False, model="test", settings=_settings()
    )
    assert (session.session_id, history) == (UUID, [])
    session.record_turn(histories.turn("step 1", "done 1"), Usage())
    session.close()

    assert session.log.path.name.endswith(f"_{UUID}.jsonl")
    assert json.loads(session.log.path.read_text().splitlines()[0])["session_id"] == UUID
    assert find_session(tmp_path, UUID.upper()) == session.log.path  # `uuidgen` on macOS: capitals
    assert find_session(tmp_path, UUID[:6]) == session.log.path
    again, history = open_chosen(tmp_path, resume=UUID, session_id=None, fork=False, model=None, settings=_settings())
    assert again.session_id == UUID
    assert len(history) == 2
    again.close()


def test_a_fork_copies_the_history_and_leaves_the_original_as_it_was(tmp_path: Path, histories: Any) -> None:
    original = _saved(tmp_path, histories, turns=2)
    before = original.path.read_bytes()

    fork, history = open_chosen(
        tmp_path, resume=original.session_id, session_id=None, fork=True, model=None, settings=_settings()
    )
    fork.record_turn(histories.turn("turn 2", "answer 2"), Usage())
    fork.close()

    assert fork.session_id != original.session_id
    assert len(fork.session_id) == 8  # decode's own kind of id
    assert len(history) == 4  # both turns, to continue from
    assert original.path.read_bytes() == before
    loaded = load_session(fork.log.path)
    assert (loaded.turns, loaded.header.forked_from) == (3, original.session_id)


def test_a_fork_of_the_newest_takes_the_given_id(tmp_path: Path, histories: Any) -> None:
    _saved(tmp_path, histories)
    newest = _saved(tmp_path, histories, turns=2)

    fork, history = open_chosen(tmp_path, resume="", session_id=UUID, fork=True, model=None, settings=_settings())
    fork.close()

    assert fork.session_id == UUID
    assert fork.log.path.name.endswith(f"_{UUID}.jsonl")
    assert len(history) == 4
    assert load_session(fork.log.path).header.forked_from == newest.session_id


def test_a_fork_of_a_fork_leads_back_to_the_original(tmp_path: Path, histories: Any) -> None:
    original = _saved(tmp_path, histories)
    first, _ = open_chosen(
        tmp_path, resume=original.session_id, session_id=None, fork=True, model=None, settings=_settings()
    )
    first.close()
    second, _ = open_chosen(
        tmp_path, resume=first.session_id, session_id=UUID, fork=True, model=None, settings=_settings()
    )
    second.close()

    assert lineage(second.log.path) == [second.log.path, first.log.path, original.path]


def test_a_fork_names_its_parent_by_the_file_not_by_what_the_header_claims(tmp_path: Path, histories: Any) -> None:
    """A log planted with a header whose id is not its file's: the fork still leads back to that file
    (the planted check follows `lineage`), whatever the header says."""
    original = _saved(tmp_path, histories)
    lines = original.path.read_text().splitlines(keepends=True)
    header = json.loads(lines[0])
    header["session_id"] = "Evil.ID"
    original.path.write_text(json.dumps(header) + "\n" + "".join(lines[1:]))

    fork, _ = open_chosen(
        tmp_path, resume=original.session_id, session_id=None, fork=True, model=None, settings=_settings()
    )
    fork.close()

    assert load_session(fork.log.path).header.forked_from == original.session_id
    assert lineage(fork.log.path) == [fork.log.path, original.path]
