"""Writing the Session Log on real files: when the file appears, what a line holds, reopening after a crash."""

import json
import stat
from pathlib import Path

from pydantic import SecretStr
from pydantic_ai.messages import BinaryContent, ModelMessagesTypeAdapter, ModelRequest, UserPromptPart

from decode.config.settings import Settings
from decode.context.replay import load_session
from decode.context.session import Session
from decode.context.session_log import FORMAT_VERSION, SESSIONS_DIR, SessionLog
from decode.entities.usage import Usage


def test_nothing_is_written_until_the_first_turn(log: SessionLog, tmp_path: Path) -> None:
    assert not (tmp_path / SESSIONS_DIR).exists()
    assert log.path.parent == tmp_path / SESSIONS_DIR
    assert log.path.name.endswith(f"_{log.session_id}.jsonl")


def test_a_turn_line_holds_the_messages_in_pydantic_ais_own_form(log: SessionLog, histories, log_lines) -> None:
    turn = histories.turn("read x", "x says hi", tools=[("read", {"path": "x"}, "hi")], input_tokens=40)
    log.append_turn(turn, Usage(requests=2, input_tokens=40, output_tokens=4), model="script:turns.json", mode="plan")
    header, record = log_lines(log.path)
    assert header["type"] == "header"
    assert header["version"] == FORMAT_VERSION
    assert (header["session_id"], header["model"], header["mode"]) == (
        log.session_id,
        "script:turns.json",
        "accept-edits",
    )
    assert header["created_at"].endswith("Z")  # UTC
    assert record["type"] == "turn"
    assert (record["prompt"], record["mode"], record["usage"]["input_tokens"]) == ("read x", "plan", 40)
    assert record["messages"] == json.loads(ModelMessagesTypeAdapter.dump_json(turn))


def test_reopening_cuts_the_torn_bytes_before_appending(log: SessionLog, histories, three_turns, log_lines) -> None:
    starts = three_turns(log)
    data = log.path.read_bytes()
    log.path.write_bytes(data[: starts[-1] + 40])  # a crash 40 bytes into the third turn
    session = load_session(log.path)
    reopened = SessionLog.reopen(log.path, session.header)
    reopened.append_turn(histories.turn("after the crash", "fine"), Usage(), model="test")
    replayed = load_session(log.path)
    assert replayed.turns == 3
    assert replayed.skipped_lines == 0
    assert [record["prompt"] for record in log_lines(log.path)[1:]] == ["turn 0", "turn 1", "after the crash"]


def test_binary_content_in_a_prompt_round_trips(log: SessionLog) -> None:
    image = BinaryContent(data=b"\x89PNG\r\n\x1a\n\x00\xff", media_type="image/png")
    turn = [ModelRequest(parts=[UserPromptPart(["what is in this picture?", image])])]
    log.append_turn(turn, Usage(requests=1), model="script:turns.json")
    [restored] = load_session(log.path).history
    assert isinstance(restored, ModelRequest)
    content = restored.parts[0].content
    assert isinstance(content, list)
    assert content[1].data == image.data


def test_messages_are_written_byte_for_byte_as_pydantic_ai_writes_them(log: SessionLog) -> None:
    from pydantic_ai.messages import (
        ModelResponse,
        RequestUsage,
        RetryPromptPart,
        SystemPromptPart,
        TextPart,
        ThinkingPart,
        ToolCallPart,
        ToolReturnPart,
    )

    image = BinaryContent(data=b"\x89PNG\x00", media_type="image/png")
    messages = [
        ModelRequest(
            parts=[SystemPromptPart("sys"), UserPromptPart(["look", image]), ToolReturnPart("read", "text", "c1")],
            instructions="be brief",
        ),
        ModelResponse(
            parts=[TextPart("hi"), ThinkingPart("hmm", signature="s"), ToolCallPart("read", {"path": "a"}, "c1")],
            usage=RequestUsage(input_tokens=3, output_tokens=4),
            model_name="m",
            provider_name="p",
        ),
        ModelRequest(parts=[RetryPromptPart("bad path", tool_name="read", tool_call_id="c2")]),
    ]
    log.append_turn(messages, Usage(requests=1), model="test")
    line = log.path.read_bytes().splitlines()[1]
    written = line[line.index(b'"messages":') + len(b'"messages":') : -1]
    assert written == ModelMessagesTypeAdapter.dump_json(messages)


def test_the_log_is_the_users_alone(log: SessionLog, histories, tmp_path: Path) -> None:
    log.append_turn(histories.turn("my token is …", "noted"), Usage(), model="test")
    assert stat.S_IMODE(log.path.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / SESSIONS_DIR).stat().st_mode) == 0o700
    log.append_turn(histories.turn("again", "ok"), Usage(), model="test")
    assert stat.S_IMODE(log.path.stat().st_mode) == 0o600


def test_no_line_of_a_real_log_holds_decodes_key(tmp_path: Path, histories, log_lines) -> None:
    key = 'sk-or-v1-"session"-key-0123456789'  # a quote: JSON escapes it in the line
    settings = Settings(_env_file=None, openrouter_api_key=SecretStr(key))  # type: ignore[call-arg]
    session = Session.start(tmp_path, model="script:turns.json", settings=settings)
    turn = histories.turn(f"use {key}", f"I used {key}", tools=[("read", {"path": ".env"}, f"KEY={key}")])
    session.record_turn(turn, Usage(requests=1))
    text = session.log.path.read_text()
    assert key not in text
    assert json.dumps(key)[1:-1] not in text
    _, record = log_lines(session.log.path)
    assert record["prompt"] == "use [REDACTED:OPENROUTER_API_KEY]"
    assert text.count("[REDACTED:OPENROUTER_API_KEY]") == 4  # prompt preview, prompt, tool result, answer
    assert load_session(session.log.path).history  # still a log decode reads back
