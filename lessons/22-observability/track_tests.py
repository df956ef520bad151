"""Lesson 22's build-along track: the Tracing Seam turns a turn's events into a trace of spans.

`make lesson-check N=22` runs these against your copy (`make lesson-start N=22`); each test's first
docstring line is the behaviour it reports.
"""

from collections.abc import AsyncIterator

import pytest

from decode.entities import events as ev
from decode.entities.tool_calls import ToolCall, ToolResult
from decode.entities.usage import Usage
from decode.observability.observer import TurnInfo, TurnObserver, outcome
from decode.observability.records import SpanRecord, TraceRecord


class ListSink:
    """A trace sink that keeps what it is given (the TraceSink protocol, in memory)."""

    def __init__(self) -> None:
        self.traces: list[TraceRecord] = []
        self.spans: list[SpanRecord] = []

    def write_trace(self, trace: TraceRecord) -> None:
        self.traces.append(trace)

    def write_span(self, span: SpanRecord) -> None:
        self.spans.append(span)

    def close(self, timeout_s: int) -> None:
        return None


INFO = TurnInfo("decode_run", "session-1", "script:x.json", {"agent": "build"})


def result(content: str, *, is_error: bool = False) -> ToolResult:
    return ToolResult(call_id="c1", name="bash", content=content, is_error=is_error, duration_s=0.1)


async def a_turn() -> AsyncIterator[ev.AgentEvent]:
    yield ev.TextDelta(text="Running.")
    request = Usage(requests=1, input_tokens=10, output_tokens=3)
    yield ev.UsageUpdated(request=request, total=request)
    yield ev.ToolCallStarted(call=ToolCall(id="c1", name="bash", args={"command": "pytest"}))
    yield ev.ToolCallFinished(result=result("1 passed"))
    yield ev.UsageUpdated(request=request, total=request + request)
    yield ev.TurnFinished(output="All green.", usage=request + request)


async def test_watching_passes_the_events_on_unchanged() -> None:
    """The observer passes every event of the turn on, unchanged and in order."""
    seen = [event async for event in TurnObserver(ListSink(), INFO, "run the tests").watch(a_turn())]
    expected = [event async for event in a_turn()]
    assert seen == expected


async def test_a_turn_becomes_a_trace_with_a_span_per_request_and_tool_call() -> None:
    """A turn becomes one trace with the answer, a span per model request and one per tool call."""
    sink = ListSink()
    _ = [event async for event in TurnObserver(sink, INFO, "run the tests").watch(a_turn())]
    assert [(span.name, span.type) for span in sink.spans] == [
        ("model request", "llm"),
        ("bash", "tool"),
        ("model request", "llm"),
    ]
    assert sink.spans[0].usage == {"prompt_tokens": 10, "completion_tokens": 3, "total_tokens": 13}
    assert sink.spans[0].output == {"text": "Running."}
    [trace] = sink.traces
    assert (trace.output, trace.error, trace.thread_id) == ({"answer": "All green."}, None, "session-1")


async def test_a_failed_turn_still_ends_its_trace_with_the_error() -> None:
    """A turn that fails still writes its trace, with the error, and the error goes on."""

    async def failing() -> AsyncIterator[ev.AgentEvent]:
        yield ev.TextDelta(text="…")
        raise RuntimeError("model request failed")

    sink = ListSink()
    with pytest.raises(RuntimeError, match="model request failed"):  # (a NotImplementedError is one too)
        _ = [event async for event in TurnObserver(sink, INFO, "x").watch(failing())]
    [trace] = sink.traces
    assert trace.error is not None
    assert "model request failed" in trace.error.message


def test_a_tool_result_is_ok_an_error_or_refused() -> None:
    """A tool call's outcome is ok, error, or refused (the Permission Gate said no)."""
    assert outcome(result("1 passed")) == "ok"
    assert outcome(result("exit code: 1", is_error=True)) == "error"
    assert outcome(result("Permission denied: bash(rm -rf /)", is_error=True)) == "refused"
