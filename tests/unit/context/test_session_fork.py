"""Resuming a session another process holds forks it: a new session, the original log untouched."""

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from decode.context.catalog import find_session
from decode.context.replay import load_session
from decode.context.session import Session
from decode.context.session_log import SessionLog
from decode.entities.usage import Usage


def _saved_session(home: Path, histories: Any, turns: int = 2) -> Path:
    log = SessionLog.new(home, model="test")
    for number in range(turns):
        log.append_turn(histories.turn(f"turn {number}", f"answer {number}"), Usage(), model="test")
    log.close()
    return log.path


def test_a_held_session_is_forked_and_its_log_left_untouched(
    tmp_path: Path, histories: Any, held_elsewhere: Callable[[Path], Any], caplog: pytest.LogCaptureFixture
) -> None:
    original = _saved_session(tmp_path, histories)
    before = original.read_bytes()
    first_id = load_session(original).session_id
    holder = held_elsewhere(original)

    with caplog.at_level(logging.WARNING):
        session, loaded = Session.resume(tmp_path, first_id)
    session.record_turn(histories.turn("turn 2", "answer 2"), Usage())

    forked = session.session_id
    assert forked != first_id
    assert f"session {first_id} is open in another decode (pid {holder.pid})" in caplog.text
    assert f"continuing in a new session {forked} forked from it" in caplog.text
    assert original.read_bytes() == before  # never written by the second process
    assert len(loaded.history) == len(load_session(original).history)  # the whole conversation so far
    copy = load_session(find_session(tmp_path, forked))
    assert (copy.header.forked_from, copy.turns) == (first_id, 3)
    session.close()


def test_a_torn_line_the_holder_was_writing_is_cut_from_the_fork(
    tmp_path: Path, histories: Any, held_elsewhere: Callable[[Path], Any]
) -> None:
    original = _saved_session(tmp_path, histories)
    with original.open("ab") as file:
        file.write(b'{"type":"turn","prompt":"half of a li')  # the holder is writing its line
    held_elsewhere(original)

    session, loaded = Session.resume(tmp_path, load_session(original).session_id)

    assert session.log.path.read_bytes().endswith(b"\n")
    assert (loaded.turns, loaded.skipped_lines) == (2, 0)
    session.close()


def test_a_session_whose_holder_was_killed_is_resumed_itself(
    tmp_path: Path, histories: Any, held_elsewhere: Callable[[Path], Any]
) -> None:
    original = _saved_session(tmp_path, histories)
    first_id = load_session(original).session_id
    held_elsewhere(original).kill()

    session, _ = Session.resume(tmp_path, first_id)

    assert session.session_id == first_id
    assert session.log.path == original
    session.close()
