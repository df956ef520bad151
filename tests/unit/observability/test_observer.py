"""The Tracing Seam: a turn's events become a trace of spans, whatever way the turn ends."""

import asyncio
from collections.abc import AsyncIterator, Sequence

import pytest

from decode.entities.events import (
    AgentEvent,
    TextDelta,
    ToolCallFinished,
    ToolCallStarted,
    TurnFinished,
    UsageUpdated,
)
from decode.entities.tool_calls import ToolCall, ToolResult
from decode.entities.usage import Usage
from decode.observability.observer import TurnInfo, TurnObserver, outcome, provider_of
from decode.observability.records import SpanRecord, TraceRecord, new_id
from decode.permissions.hook import refusal
from decode.permissions.rules import parse_rule
from decode.permissions.types import Decision, Verdict


class Kept:
    """A sink that keeps what it is given (the Opik sink is tested against a real collector)."""

    def __init__(self) -> None:
        self.traces: list[TraceRecord] = []
        self.spans: list[SpanRecord] = []

    def write_trace(self, trace: TraceRecord) -> None:
        self.traces.append(trace)

    def write_span(self, span: SpanRecord) -> None:
        self.spans.append(span)

    def close(self, timeout_s: int) -> None:
        pass


INFO = TurnInfo("chat_turn", "s1", "openai:gpt-5", {"model": "openai:gpt-5", "agent": "build"})
USAGE = Usage(requests=1, input_tokens=120, output_tokens=30, cost_usd=0.0015)


async def stream(events: Sequence[AgentEvent], error: BaseException | None = None) -> AsyncIterator[AgentEvent]:
    for event in events:
        await asyncio.sleep(0)
        yield event
    if error is not None:
        raise error


def a_turn() -> list[AgentEvent]:
    call = ToolCall(id="c1", name="read", args={"path": "a.py"})
    return [
        TextDelta(text="Let me look."),
        UsageUpdated(request=USAGE, total=USAGE),
        ToolCallStarted(call=call),
        ToolCallFinished(result=ToolResult(call_id="c1", name="read", content="1\tx = 1", duration_s=0.25)),
        TextDelta(text="x is 1."),
        UsageUpdated(request=USAGE, total=USAGE + USAGE),
        TurnFinished(output="x is 1.", usage=USAGE + USAGE),
    ]


async def test_a_turn_is_a_trace_with_a_span_per_request_and_per_tool_call() -> None:
    kept = Kept()
    observer = TurnObserver(kept, INFO, "what is x?")

    seen = [event async for event in observer.watch(stream(a_turn()))]

    assert seen == a_turn()  # the front end sees exactly the loop's events
    (trace,) = kept.traces
    assert (trace.name, trace.thread_id, trace.input, trace.output) == (
        "chat_turn", "s1", {"prompt": "what is x?"}, {"answer": "x is 1."}
    )  # fmt: skip
    assert trace.end is not None
    assert trace.error is None
    first, tool, second = kept.spans
    assert (first.type, first.output, first.usage) == (
        "llm", {"text": "Let me look."}, {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150}
    )  # fmt: skip
    assert (first.model, first.provider, first.cost_usd) == ("openai:gpt-5", "openai", 0.0015)
    assert (tool.type, tool.name, tool.input, tool.output) == (
        "tool", "read", {"path": "a.py"}, {"outcome": "ok", "content": "1\tx = 1"}
    )  # fmt: skip
    assert tool.metadata["duration_s"] == 0.25
    assert second.output == {"text": "x is 1."}
    assert all(span.trace_id == trace.id and span.parent_id is None for span in kept.spans)
    assert first.start <= first.end <= tool.start <= tool.end <= second.start  # type: ignore[operator]


@pytest.mark.parametrize("error", [RuntimeError("model down"), asyncio.CancelledError()])
async def test_a_failed_or_cancelled_turn_still_ends_its_trace(error: BaseException) -> None:
    kept = Kept()
    started = ToolCallStarted(call=ToolCall(id="c1", name="bash", args={"command": "sleep 9"}))

    with pytest.raises(type(error)):
        async for _ in TurnObserver(kept, INFO, "go").watch(stream([started], error)):
            pass

    (trace,) = kept.traces
    assert trace.output is None
    assert trace.end is not None
    assert trace.error is not None
    assert trace.error.exception_type == type(error).__name__
    (cut,) = kept.spans  # the call cut short ends with the turn
    assert cut.name == "bash"
    assert cut.end is not None
    assert cut.error == trace.error


async def test_a_turn_inside_an_agent_call_is_a_span_under_that_call() -> None:
    kept = Kept()
    child_info = TurnInfo("decode_run", "explore-1", "test", {"agent": "explore"}, call_id="c9")
    spawned: list[TurnObserver] = []

    async def parent_events() -> AsyncIterator[AgentEvent]:
        yield ToolCallStarted(call=ToolCall(id="c9", name="agent", args={"prompt": "look"}))

        async def run_child() -> None:  # what the `agent` tool does: in a task, as pydantic-ai runs tools
            child = TurnObserver(kept, child_info, "look")
            spawned.append(child)
            async for _ in child.watch(stream([TurnFinished(output="found", usage=Usage())])):
                pass

        await asyncio.create_task(run_child())
        yield ToolCallFinished(result=ToolResult(call_id="c9", name="agent", content="found"))
        yield TurnFinished(output="done", usage=Usage())

    async for _ in TurnObserver(kept, INFO, "map it").watch(parent_events()):
        pass

    (trace,) = kept.traces  # the child wrote no trace of its own
    subagent, agent_call = kept.spans
    assert (agent_call.name, agent_call.parent_id) == ("agent", None)
    assert (subagent.name, subagent.parent_id, subagent.trace_id) == ("subagent explore", agent_call.id, trace.id)
    assert subagent.output == {"answer": "found"}


def test_outcomes_tell_a_refusal_from_an_error() -> None:
    def result(content: str, is_error: bool = True) -> ToolResult:
        return ToolResult(call_id="c", name="bash", content=content, is_error=is_error)

    assert outcome(result("ok", is_error=False)) == "ok"
    assert outcome(result('{"error": "no such file"}')) == "error"
    for verdict in (
        Verdict(Decision.DENY, "rm is denied", parse_rule("Bash(rm:*)", Decision.DENY)),
        Verdict(Decision.DENY, "plan mode: read only"),
        Verdict(Decision.ASK, "needs approval"),
    ):
        for headless in (True, False):
            assert outcome(result(refusal(verdict, headless=headless))) == "refused"


def test_ids_are_uuid7_and_time_ordered() -> None:
    ids = [new_id() for _ in range(50)]
    assert all(value[14] == "7" for value in ids)
    assert len(set(ids)) == 50


def test_the_provider_is_the_models_prefix() -> None:
    assert provider_of("google-gla:gemini-flash-latest") == "google-gla"
    assert provider_of("test") == "test"
