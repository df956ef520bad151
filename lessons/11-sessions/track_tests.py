"""Lesson 11's build-along track: the Session Log, written a line a turn, read back, reopened after a crash.

`make lesson-check N=11` runs these against your copy (`make lesson-start N=11`); each test's first
docstring line is the behaviour it reports.
"""

from pathlib import Path

from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, UserPromptPart

from decode.context.replay import load_session
from decode.context.session_log import SessionLog
from decode.entities.usage import Usage


def turn(prompt: str, answer: str) -> list[ModelMessage]:
    return [ModelRequest(parts=[UserPromptPart(prompt)]), ModelResponse(parts=[TextPart(answer)])]


def texts(history: list[ModelMessage]) -> list[str]:
    return [str(part.content) for message in history for part in message.parts]


def two_turns(home: Path) -> SessionLog:
    log = SessionLog.new(home, model="test")
    log.append_turn(turn("hi", "hello"), Usage(), model="test")
    log.append_turn(turn("and?", "done"), Usage(), model="script:x.json")
    log.close()
    return log


def test_each_turn_is_one_line_after_the_header(tmp_path: Path) -> None:
    """The log is a header line, then one JSON line per turn."""
    log = two_turns(tmp_path)
    lines = log.path.read_bytes().splitlines()
    assert len(lines) == 3
    assert b'"session_id"' in lines[0]
    assert b'"hello"' in lines[1]


def test_a_log_reads_back_into_the_history(tmp_path: Path) -> None:
    """Read back, the log gives the whole history, the number of turns and the latest model."""
    session = load_session(two_turns(tmp_path).path)
    assert texts(session.history) == ["hi", "hello", "and?", "done"]
    assert (session.turns, session.model, session.skipped_lines) == (2, "script:x.json", 0)


def test_a_compaction_or_a_clear_replaces_what_came_before(tmp_path: Path) -> None:
    """A compaction replaces the history before it; a clear empties it."""
    log = two_turns(tmp_path)
    log.append_compaction(turn("summary", "ok"), replaced=4, usage=Usage())
    log.append_turn(turn("more", "yes"), Usage(), model="test")
    assert texts(load_session(log.path).history) == ["summary", "ok", "more", "yes"]
    log.append_clear()
    assert load_session(log.path).history == []


def test_a_torn_last_line_is_skipped_and_the_turns_before_it_kept(tmp_path: Path) -> None:
    """A torn last line (a crash mid-write) is skipped; every complete turn is kept."""
    log = two_turns(tmp_path)
    with log.path.open("ab") as file:
        file.write(b'{"kind": "turn", "prom')
    session = load_session(log.path)
    assert texts(session.history) == ["hi", "hello", "and?", "done"]
    assert session.skipped_lines == 1


def test_reopening_cuts_a_torn_line_off_before_appending(tmp_path: Path) -> None:
    """Reopened after a crash, the log cuts off the torn line, so the next turn reads back whole."""
    log = two_turns(tmp_path)
    with log.path.open("ab") as file:
        file.write(b'{"kind": "turn", "prom')
    reopened = SessionLog.reopen(log.path, load_session(log.path).header)
    reopened.append_turn(turn("again", "here"), Usage(), model="test")
    session = load_session(log.path)
    assert session.skipped_lines == 0
    assert texts(session.history)[-2:] == ["again", "here"]
