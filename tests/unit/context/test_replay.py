"""Replaying a Session Log from real files: history, model and mode; torn and damaged lines; compaction, clear."""

import json
import logging
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic_ai.messages import BinaryContent, ModelMessagesTypeAdapter, ModelRequest, UserPromptPart

from decode.context.catalog import describe_session
from decode.context.replay import load_session
from decode.context.session_log import FORMAT_VERSION, SessionLog, SessionLogError
from decode.entities.usage import Usage
from tests.conftest import returns_at_once


def test_replaying_gives_back_the_history_the_model_and_the_mode(log: SessionLog, histories) -> None:
    first = histories.turn("one", "1", tools=[("read", {"path": "a"}, "A")])
    second = histories.turn("two", "2")
    log.append_turn(first, Usage(requests=2, input_tokens=10, output_tokens=2), model="script:a.json")
    log.append_turn(second, Usage(requests=1, input_tokens=20, output_tokens=1), model="script:b.json", mode="plan")
    session = load_session(log.path)
    assert session.history == [*first, *second]
    assert (session.turns, session.model, session.mode) == (2, "script:b.json", "plan")
    assert session.session_id == log.session_id


def test_binary_content_round_trips(log: SessionLog) -> None:
    image = BinaryContent(data=b"\x89PNG\r\n\x1a\n\x00\xff", media_type="image/png")
    turn = [ModelRequest(parts=[UserPromptPart(["what is this?", image])])]
    log.append_turn(turn, Usage(), model="test")
    (request,) = load_session(log.path).history
    assert request == ModelMessagesTypeAdapter.validate_json(ModelMessagesTypeAdapter.dump_json(turn))[0]
    assert request.parts[0].content[1].data == image.data


def test_a_compaction_line_replaces_the_history_and_a_clear_empties_it(log: SessionLog, histories, log_lines) -> None:
    log.append_turn(histories.turn("one", "1"), Usage(), model="test")
    compacted = histories.turn("summary of one", "ok")
    log.append_compaction(compacted, replaced=2, usage=Usage(requests=1, input_tokens=5), focus="tests")
    later = histories.turn("two", "2")
    log.append_turn(later, Usage(), model="test")
    assert load_session(log.path).history == [*compacted, *later]
    log.append_clear()
    cleared = load_session(log.path)
    assert (cleared.history, cleared.turns) == ([], 2)
    assert log_lines(log.path)[2]["focus"] == "tests"


def test_a_torn_last_line_is_skipped_with_a_warning_at_any_byte(
    log: SessionLog, histories, caplog: pytest.LogCaptureFixture, three_turns
) -> None:
    starts = three_turns(log)
    data = log.path.read_bytes()
    complete = load_session(log.path).history
    last = starts[-1]
    for cut in range(last + 1, len(data) - 1, 97):  # every 97th byte of the last line
        log.path.write_bytes(data[:cut])
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="decode.context.replay"):
            session = load_session(log.path)
        assert session.turns == 2
        assert session.history == complete[:4]
        assert "torn last line" in caplog.text


def test_a_damaged_line_in_the_middle_costs_only_that_line(log: SessionLog, histories, caplog, three_turns) -> None:
    three_turns(log)
    text = log.path.read_text().splitlines()
    text[2] = text[2][:50]  # a line cut short in the middle of the file (edited by hand, say)
    log.path.write_text("\n".join(text) + "\n")
    with caplog.at_level(logging.WARNING):
        session = load_session(log.path)
    assert (session.turns, session.skipped_lines) == (2, 1)
    assert ":3: skipping a line" in caplog.text


def test_a_file_that_is_not_a_session_log_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.jsonl"
    path.write_text('{"hello": "world"}\n')
    with pytest.raises(SessionLogError, match="not a decode session log"):
        load_session(path)


def test_a_log_from_a_newer_decode_is_refused(log: SessionLog, histories, log_lines) -> None:
    log.append_turn(histories.turn("x", "y"), Usage(), model="test")
    records = log_lines(log.path)
    records[0]["version"] = FORMAT_VERSION + 1
    log.path.write_text("\n".join(json.dumps(record) for record in records) + "\n")
    with pytest.raises(SessionLogError, match="newer decode"):
        load_session(log.path)


def test_after_a_compaction_the_model_and_mode_come_from_the_last_turn_before_it(log: SessionLog, histories) -> None:
    log.append_turn(histories.turn("one", "1"), Usage(), model="script:first.json", mode="plan")
    log.append_turn(histories.turn("two", "2"), Usage(), model="script:second.json", mode="bypass")
    log.append_compaction(histories.turn("summary", "ok"), replaced=4, usage=Usage())
    session = load_session(log.path)
    assert (session.turns, session.model, session.mode) == (2, "script:second.json", "bypass")
    assert len(session.history) == 2


def test_lines_a_compaction_replaced_are_not_even_read_into_messages(log: SessionLog, histories, caplog) -> None:
    log.append_turn(histories.turn("one", "1"), Usage(), model="test")
    text = log.path.read_text().splitlines()
    text[1] = text[1].replace('"parts":[', '"parts":[{"part_kind":"nonsense"},', 1)  # a damaged turn…
    log.path.write_text("\n".join(text) + "\n")
    compacted = histories.turn("summary of one", "ok")
    log.append_compaction(compacted, replaced=2, usage=Usage())  # …that a compaction replaced
    with caplog.at_level(logging.WARNING):
        session = load_session(log.path)
    assert session.history == compacted
    assert not caplog.records


def test_a_damaged_compaction_keeps_the_turns_it_would_have_replaced(log: SessionLog, histories, caplog) -> None:
    first = histories.turn("one", "1")
    log.append_turn(first, Usage(), model="test")
    log.append_compaction(histories.turn("summary", "ok"), replaced=2, usage=Usage())
    later = histories.turn("two", "2")
    log.append_turn(later, Usage(), model="test")
    text = log.path.read_text().splitlines()
    text[2] = text[2][:60]  # the compaction line, damaged
    log.path.write_text("\n".join(text) + "\n")
    with caplog.at_level(logging.WARNING):
        session = load_session(log.path)
    assert session.history == [*first, *later]
    assert session.turns == 2
    assert ":3: skipping a line" in caplog.text


@pytest.mark.parametrize("reader", [load_session, describe_session])
def test_a_fifo_in_place_of_a_log_is_refused_at_once(tmp_path: Path, reader: Callable[[Path], object]) -> None:
    path = tmp_path / "20260101T000000Z_abc.jsonl"
    os.mkfifo(path)  # a blocking open would wait for a writer for ever
    raised: list[BaseException] = []

    def attempt() -> None:
        try:
            reader(path)
        except SessionLogError as exc:
            raised.append(exc)

    returns_at_once(attempt, path)
    assert [str(exc) for exc in raised] == [f"{path}: is not a regular file"]
