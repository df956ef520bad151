from pydantic import TypeAdapter

from decode.entities.events import (
    AgentEvent,
    Notice,
    TextDelta,
    ThinkingDelta,
    ToolCallFinished,
    ToolCallStarted,
    TurnFinished,
    UsageUpdated,
)
from decode.entities.tool_calls import ToolCall, ToolResult
from decode.entities.usage import Usage


def test_every_event_round_trips_through_json() -> None:
    events = [
        TextDelta(text="Hel"),
        ThinkingDelta(text="hmm"),
        ToolCallStarted(call=ToolCall(id="c1", name="read", args={"path": "a.py"})),
        ToolCallFinished(result=ToolResult(call_id="c1", name="read", content="1\tx", duration_s=0.5)),
        UsageUpdated(request=Usage(requests=1, input_tokens=3), total=Usage(requests=2, input_tokens=9)),
        Notice(level="warning", message="retrying"),
        TurnFinished(output="done", usage=Usage(requests=2, cost_usd=0.01)),
    ]
    adapter: TypeAdapter[AgentEvent] = TypeAdapter(AgentEvent)
    for event in events:
        assert adapter.validate_json(adapter.dump_json(event)) == event


def test_kind_tells_events_apart() -> None:
    kinds = {TextDelta(text="a").kind, ThinkingDelta(text="a").kind}
    assert kinds == {"text", "thinking"}
