import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    ModelResponseStreamEvent,
    PartDeltaEvent,
    PartStartEvent,
    TextPart,
    TextPartDelta,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models import ModelRequestParameters

from decode.models.errors import ModelConfigError
from decode.models.script import ScriptedModel, ScriptedResponse, ScriptedToolCall, ScriptExhaustedError, load_script


def write_script(directory: Path, content: Any, name: str = "turns.json") -> Path:
    path = directory / name
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return path


def stream(model: ScriptedModel) -> tuple[list[ModelResponseStreamEvent], ModelResponse]:
    """One streamed request straight to the model: its events and the response they add up to."""

    async def run() -> tuple[list[ModelResponseStreamEvent], ModelResponse]:
        messages: list[ModelMessage] = [ModelRequest.user_text_prompt("go")]
        async with model.request_stream(messages, None, ModelRequestParameters()) as response:
            return [event async for event in response], response.get()

    return asyncio.run(run())


def shout(word: str) -> str:
    """Say the word loudly."""
    return word.upper() + "!"


# --- the file format -------------------------------------------------------------------------


def test_a_valid_script_loads_in_order(tmp_path: Path) -> None:
    path = write_script(
        tmp_path,
        [
            {"tool_calls": [{"name": "read", "args": {"path": "README.md"}}]},
            {"text": "Reading it again.", "tool_calls": [{"name": "read"}]},
            {"text": "The README says hello."},
        ],
    )

    assert load_script(path) == [
        ScriptedResponse(tool_calls=[ScriptedToolCall(name="read", args={"path": "README.md"})]),
        ScriptedResponse(text="Reading it again.", tool_calls=[ScriptedToolCall(name="read")]),
        ScriptedResponse(text="The README says hello."),
    ]


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(ModelConfigError, match=r"nowhere\.json does not exist"):
        load_script(tmp_path / "nowhere.json")


def test_a_directory_is_not_a_script(tmp_path: Path) -> None:
    with pytest.raises(ModelConfigError) as caught:
        load_script(tmp_path)

    assert f"{tmp_path} cannot be read" in str(caught.value)


def test_a_fifo_is_refused_at_once_never_waited_on(tmp_path: Path) -> None:
    """A custom command a repository ships may say `model: script:.claude/pipe` (ADR-0147): a FIFO
    there must be one line, not a thread blocked in `open` that decode then waits on at exit."""
    import os
    import threading

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    outcome: list[BaseException] = []

    def load() -> None:
        try:
            load_script(fifo)
        except BaseException as exc:
            outcome.append(exc)

    reader = threading.Thread(target=load, daemon=True)
    reader.start()
    reader.join(5)
    if reader.is_alive():  # the old code: blocked in open(); a writer lets it go
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(5)
    assert outcome, "a FIFO was waited on"
    assert isinstance(outcome[0], ModelConfigError)
    assert "is not a regular file" in str(outcome[0])


def test_a_script_beyond_the_cap_is_refused_unread(tmp_path: Path) -> None:
    """`script:` names any file (`/dev/zero`, a huge one): it is read up to a cap, never whole."""
    import os

    from decode.models.script import SCRIPT_LIMIT

    huge = tmp_path / "huge.json"
    with huge.open("wb") as file:
        os.truncate(file.fileno(), SCRIPT_LIMIT + 1)  # sparse: no disk, no time
    with pytest.raises(ModelConfigError, match=r"huge\.json cannot be read \(is larger than"):
        load_script(huge)


def test_invalid_json_names_the_file_and_the_position(tmp_path: Path) -> None:
    path = write_script(tmp_path, '[{"text": "hi"},\n {"text": oops}]')

    with pytest.raises(ModelConfigError) as caught:
        load_script(path)

    assert str(caught.value).startswith(f"script model: {path} is not valid JSON")
    assert "line 2" in str(caught.value)


def test_the_script_must_be_a_list(tmp_path: Path) -> None:
    path = write_script(tmp_path, {"text": "hi"})

    with pytest.raises(ModelConfigError, match="must hold a JSON list of responses"):
        load_script(path)


@pytest.mark.parametrize(
    ("items", "problem"),
    [
        pytest.param(
            [{"text": "ok"}, "just a string"], "item 1: Input should be a valid dictionary", id="not-an-object"
        ),
        pytest.param([{"txt": "typo"}], "item 0: txt: Extra inputs are not permitted", id="unknown-key"),
        pytest.param([{"text": 42}], "item 0: text: Input should be a valid string", id="text-not-a-string"),
        pytest.param(
            [{"tool_calls": [{"args": {}}]}], "item 0: tool_calls.0.name: Field required", id="call-without-name"
        ),
        pytest.param(
            [{"tool_calls": [{"name": "read", "args": ["README.md"]}]}],
            "item 0: tool_calls.0.args: Input should be a valid dictionary",
            id="args-not-an-object",
        ),
        pytest.param([{}], "item 0 has neither 'text' nor 'tool_calls'", id="empty-item"),
        pytest.param([{"text": ""}], "item 0 has neither 'text' nor 'tool_calls'", id="empty-text"),
        pytest.param([{"text": "ok"}, {"tool_calls": []}], "item 1 has neither", id="no-calls"),
    ],
)
def test_a_bad_item_is_named_by_file_index_and_field(tmp_path: Path, items: list[Any], problem: str) -> None:
    path = write_script(tmp_path, items)

    with pytest.raises(ModelConfigError) as caught:
        load_script(path)

    assert str(caught.value).startswith(f"script model: {path} ")
    assert problem in str(caught.value)


def test_from_file_names_the_model_after_the_file(tmp_path: Path) -> None:
    path = write_script(tmp_path, [{"text": "hi"}])

    assert ScriptedModel.from_file(path).model_name == f"script:{path}"


# --- playing the script ----------------------------------------------------------------------


def test_text_streams_in_word_sized_chunks() -> None:
    model = ScriptedModel([ScriptedResponse(text="The README says hello.")])

    events, response = stream(model)

    assert isinstance(events[0], PartStartEvent)
    assert isinstance(events[0].part, TextPart)
    pieces = [events[0].part.content]
    pieces += [
        e.delta.content_delta for e in events if isinstance(e, PartDeltaEvent) and isinstance(e.delta, TextPartDelta)
    ]
    assert pieces == ["The ", "README ", "says ", "hello."]
    assert response.parts == [TextPart("The README says hello.")]


def test_tool_calls_stream_after_the_text_with_their_arguments() -> None:
    calls = [ScriptedToolCall(name="read", args={"path": "a.py"}), ScriptedToolCall(name="glob")]
    model = ScriptedModel([ScriptedResponse(text="Looking.", tool_calls=calls)])

    _, response = stream(model)

    text, first, second = response.parts
    assert text == TextPart("Looking.")
    assert isinstance(first, ToolCallPart)
    assert isinstance(second, ToolCallPart)
    assert (first.tool_name, first.args_as_dict()) == ("read", {"path": "a.py"})
    assert (second.tool_name, second.args_as_dict()) == ("glob", {})
    assert first.tool_call_id != second.tool_call_id


@pytest.mark.parametrize("streamed", [True, False], ids=["streamed", "not-streamed"])
def test_an_agent_runs_the_script_through_a_tool_call(streamed: bool) -> None:
    model = ScriptedModel(
        [
            ScriptedResponse(tool_calls=[ScriptedToolCall(name="shout", args={"word": "hello"})]),
            ScriptedResponse(text="It said HELLO!"),
        ]
    )
    agent = Agent(model, tools=[shout])

    async def run() -> tuple[str, list[Any]]:
        if streamed:
            async with agent.run_stream("shout hello") as result:
                output = await result.get_output()
            return output, result.all_messages()
        result = await agent.run("shout hello")
        return result.output, result.all_messages()

    output, messages = asyncio.run(run())

    assert output == "It said HELLO!"
    returns = [part for message in messages for part in message.parts if isinstance(part, ToolReturnPart)]
    assert [(part.tool_name, part.content) for part in returns] == [("shout", "HELLO!")]
    assert model.played == 2


@pytest.mark.parametrize("streamed", [True, False], ids=["streamed", "not-streamed"])
def test_running_out_of_responses_names_the_file(streamed: bool) -> None:
    model = ScriptedModel(
        [ScriptedResponse(tool_calls=[ScriptedToolCall(name="shout", args={"word": "x"})])], source="turns.json"
    )
    agent = Agent(model, tools=[shout])

    async def run() -> None:
        if streamed:
            async with agent.run_stream("go") as result:
                await result.get_output()
        else:
            await agent.run("go")

    with pytest.raises(ScriptExhaustedError) as caught:
        asyncio.run(run())

    assert str(caught.value) == (
        "script model: turns.json has no response left (it holds 1, the agent asked for one more)"
    )


# --- a slow model (lesson 10) ----------------------------------------------------------------


def test_delay_s_is_optional_and_must_be_a_sensible_number_of_seconds(tmp_path: Path) -> None:
    (fast, slow) = load_script(write_script(tmp_path, [{"text": "now"}, {"text": "later", "delay_s": 0.5}]))
    assert (fast.delay_s, slow.delay_s) == (0, 0.5)

    for bad, problem in [(-1, "greater than or equal to 0"), ("soon", "valid number"), (7200, "less than or equal")]:
        with pytest.raises(ModelConfigError, match=f"item 0: delay_s: Input should be .*{problem}"):
            load_script(write_script(tmp_path, [{"text": "x", "delay_s": bad}], name="bad.json"))


@pytest.mark.parametrize("streamed", [True, False], ids=["streamed", "not-streamed"])
def test_a_delayed_response_waits_before_answering_and_can_be_cancelled(streamed: bool) -> None:
    model = ScriptedModel([ScriptedResponse(text="too late", delay_s=3600)])
    agent = Agent(model)

    async def run() -> None:
        if streamed:
            async with agent.run_stream("hi") as result:
                await result.get_output()
        else:
            await agent.run("hi")

    async def give_up() -> bool:
        task = asyncio.create_task(run())
        done, _ = await asyncio.wait([task], timeout=0.2)  # the model is still "thinking"
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return not done

    assert asyncio.run(give_up())
    assert model.played == 1
