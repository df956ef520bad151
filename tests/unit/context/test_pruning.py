"""Pruning: which old tool outputs become placeholders, and only in what the model is sent."""

from collections.abc import AsyncIterator

from pydantic_ai import Agent
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.usage import RequestUsage

from decode.context.pruning import PrunedModel, ToolOutputPruning, placeholder, prunable_outputs, with_placeholders
from decode.context.windows import estimate_tokens


def tool_outputs(messages: list[ModelMessage]) -> dict[str, str]:
    return {
        part.tool_call_id: part.content
        for message in messages
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    }


def test_old_long_outputs_are_prunable_recent_and_short_ones_are_not(histories) -> None:
    messages = [
        *histories.turn("first", "ok", tools=[("read", {"path": "old.py"}, "old line\n" * 500)]),  # call-1
        *histories.turn("second", "ok", tools=[("read", {"path": "tiny.py"}, "x")]),  # call-2
        *histories.turn("third", "ok", tools=[("read", {"path": "new.py"}, "new line\n" * 500)]),  # call-3
    ]
    recent = estimate_tokens(messages[-4:])
    assert prunable_outputs(messages, keep_recent_tokens=recent) == {"call-1"}


def test_placeholders_replace_only_the_chosen_outputs_in_a_copy(histories) -> None:
    messages = histories.turn("go", "ok", tools=[("read", {}, "a" * 5000), ("grep", {}, "b" * 10)])
    pruned = with_placeholders(messages, {"call-1"})
    outputs = tool_outputs(pruned)
    assert (
        outputs["call-1"]
        == "[read output pruned to save context (5,000 characters); call the tool again if you need it]"
    )
    assert outputs["call-2"] == "b" * 10
    assert tool_outputs(messages)["call-1"] == "a" * 5000  # the original is untouched


class Recorder:
    """A model that answers "ok" and keeps the tool outputs of every request it received."""

    def __init__(self) -> None:
        self.seen: list[dict[str, str]] = []
        self.model = FunctionModel(self.respond)

    def respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.seen.append(tool_outputs(messages))
        return ModelResponse(parts=[TextPart("ok")], usage=RequestUsage(input_tokens=10))


def _big_history(histories, last_input_tokens: int) -> list[ModelMessage]:
    """An old 6,000-token tool output, a recent short one; the provider counted `last_input_tokens`."""
    return [
        *histories.turn("read the old file", "read it", tools=[("read", {"path": "old.py"}, "o" * 24_000)]),
        *histories.turn(
            "and the new one",
            "read it",
            tools=[("read", {"path": "new.py"}, "n" * 400)],
            input_tokens=last_input_tokens,
        ),
    ]


async def test_past_60_percent_old_outputs_reach_the_model_as_placeholders(histories) -> None:
    history = _big_history(histories, last_input_tokens=6_500)  # 65 % of 10,000
    recorder, pruning = Recorder(), ToolOutputPruning(window=10_000)
    result = await Agent(recorder.model).run("next", message_history=history, capabilities=[pruning])
    assert recorder.seen[0]["call-1"] == placeholder(ToolReturnPart("read", "o" * 24_000, tool_call_id="call-1"))
    assert recorder.seen[0]["call-2"] == "n" * 400  # recent: verbatim
    assert tool_outputs(result.all_messages())["call-1"] == "o" * 24_000  # the history keeps the original


async def test_below_60_percent_nothing_is_pruned(histories) -> None:
    history = _big_history(histories, last_input_tokens=6_500)
    recorder, pruning = Recorder(), ToolOutputPruning(window=11_000)  # 59 %
    await Agent(recorder.model).run("next", message_history=history, capabilities=[pruning])
    assert recorder.seen[0]["call-1"] == "o" * 24_000
    assert pruning.pruned == set()


async def test_a_pruned_output_stays_pruned_when_the_fill_drops(histories) -> None:
    history = _big_history(histories, last_input_tokens=6_500)
    recorder, pruning = Recorder(), ToolOutputPruning(window=10_000)
    result = await Agent(recorder.model).run("next", message_history=history, capabilities=[pruning])
    # The answer's usage (10 tokens) says the context is nearly empty now; the output stays hidden.
    await Agent(recorder.model).run("again", message_history=result.all_messages(), capabilities=[pruning])
    assert recorder.seen[1]["call-1"].startswith("[read output pruned")


async def test_the_pruned_model_sends_what_the_capability_would_and_the_history_keeps_the_outputs(histories) -> None:
    history = _big_history(histories, last_input_tokens=6_500)  # 65 % of 10,000
    recorder, pruning = Recorder(), ToolOutputPruning(window=10_000)
    result = await Agent(PrunedModel(recorder.model, pruning)).run("next", message_history=history)
    assert recorder.seen[0]["call-1"] == placeholder(ToolReturnPart("read", "o" * 24_000, tool_call_id="call-1"))
    assert recorder.seen[0]["call-2"] == "n" * 400
    assert pruning.pruned == {"call-1"}  # the same state as the capability's: a later request keeps it hidden
    assert tool_outputs(result.all_messages())["call-1"] == "o" * 24_000


async def test_the_pruned_model_prunes_a_streamed_request_too(histories) -> None:
    history = _big_history(histories, last_input_tokens=6_500)
    seen: list[dict[str, str]] = []

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        seen.append(tool_outputs(messages))
        yield "ok"

    model = PrunedModel(FunctionModel(stream_function=stream), ToolOutputPruning(window=10_000))
    async with Agent(model).run_stream("next", message_history=history) as result:
        assert await result.get_output() == "ok"
    assert seen[0]["call-1"].startswith("[read output pruned")
    assert seen[0]["call-2"] == "n" * 400


# --- tier 2: summarising --------------------------------------------------------------------
