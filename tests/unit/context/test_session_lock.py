"""The Session Lock: one process at a time; a killed holder never blocks; shared within a process."""

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from decode.context.session import Session
from decode.context.session_lock import SessionBusy, hold, lock_path
from decode.context.session_log import SessionError, SessionLog
from decode.entities.usage import Usage


def test_a_log_held_by_another_process_is_busy_and_names_its_pid(
    tmp_path: Path, held_elsewhere: Callable[[Path], Any]
) -> None:
    log = tmp_path / "20261206T100000Z_abcd1234.jsonl"
    holder = held_elsewhere(log)
    with pytest.raises(SessionBusy) as busy:
        hold(log)
    assert busy.value.pid == holder.pid
    assert f"pid {holder.pid}" in str(busy.value)


def test_a_killed_holder_does_not_block_the_next(tmp_path: Path, held_elsewhere: Callable[[Path], Any]) -> None:
    log = tmp_path / "20261206T100000Z_abcd1234.jsonl"
    held_elsewhere(log).kill()
    assert lock_path(log).exists()  # left behind by the killed process, and taken over
    lock = hold(log)
    lock.release()
    assert not lock_path(log).exists()


def test_one_process_holds_a_log_once_until_its_last_holder_lets_go(tmp_path: Path) -> None:
    log = tmp_path / "20261206T100000Z_abcd1234.jsonl"
    first = hold(log)
    second = hold(log)  # the REPL resuming its own session
    assert second is first
    first.release()
    assert lock_path(log).exists()
    second.release()
    assert not lock_path(log).exists()
    hold(log).release()  # free again


def test_a_link_in_the_lock_files_place_is_an_error_naming_the_session(tmp_path: Path, histories: Any) -> None:
    log = SessionLog.new(tmp_path, model="test")
    log.append_turn(histories.turn("one", "answer"), Usage(), model="test")
    log.close()
    lock_path(log.path).symlink_to(tmp_path / "elsewhere")  # planted: never followed

    with pytest.raises(SessionError, match="its lock file cannot be opened"):
        Session.resume(tmp_path, log.session_id)
    assert not (tmp_path / "elsewhere").exists()
