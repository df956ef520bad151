"""The Tracing Seam: one turn's event stream, watched, becomes a trace of spans.

The loop already says everything a trace needs, in order: a `UsageUpdated` ends each model request
(its tokens and cost), `ToolCallStarted`/`ToolCallFinished` bracket each tool call, `TurnFinished`
carries the answer. `TurnObserver.watch()` passes every event on unchanged and records as they go.
A subagent's turn runs inside its parent's `agent` tool call: the parent's observer is the current
one there (a context variable), so the child's turn becomes a span under that call, in the same trace.
"""

from collections.abc import AsyncGenerator, AsyncIterator, Callable
from contextlib import suppress
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from decode.entities.events import AgentEvent, TextDelta, ToolCallFinished, ToolCallStarted, TurnFinished, UsageUpdated
from decode.entities.tool_calls import ToolResult
from decode.observability.records import ErrorInfo, Outcome, SpanRecord, TraceRecord, new_id, now
from decode.observability.sink import TraceSink
from decode.permissions.hook import DO_NOT_WORK_AROUND

REFUSALS = ("Permission denied:", "Permission needed (", "The user did not allow", "The user said no.")
"""How the Permission Hook's refusals begin (`permissions/hook.py`): the loop's `ToolResult` says only
`is_error`, and a refused call is not a failed one (a test holds these to the hook's wording)."""

_current: ContextVar["TurnObserver | None"] = ContextVar("decode_turn_observer", default=None)
"""The observer of the turn whose tools are running: a subagent started by one finds its parent here."""


@dataclass(frozen=True)
class TurnInfo:
    """What a trace says about the turn beyond its events (read when the turn starts)."""

    name: str
    """`chat_turn` (the REPL), `decode_run` (headless)."""
    thread_id: str
    """The decode session id: a session's turns are one Opik thread."""
    model: str
    metadata: dict[str, Any]
    """model, agent, permission mode, sandbox."""
    call_id: str = ""
    """Set for a subagent: the parent's `agent` tool call it runs in."""


def outcome(result: ToolResult) -> Outcome:
    """`refused` (the Permission Gate said no, so it never ran), `error`, or `ok`."""
    if not result.is_error:
        return "ok"
    refused = result.content.startswith(REFUSALS) or DO_NOT_WORK_AROUND in result.content
    return "refused" if refused else "error"


def provider_of(model: str) -> str:
    """`google-gla:gemini-flash-latest` → `google-gla`; a name without a prefix is its own provider."""
    return model.split(":", 1)[0]


class TurnObserver:
    """Watches one turn and writes its trace (or, for a subagent, its span) to a sink."""

    def __init__(self, sink: TraceSink, info: TurnInfo, prompt: str) -> None:
        self.sink = sink
        self.info = info
        self.prompt = prompt
        parent = _current.get()
        under = parent.tool_spans.get(info.call_id) if parent is not None and info.call_id else None
        self.trace: TraceRecord | None = None
        self.root: SpanRecord | None = None
        if under is not None and parent is not None:  # a subagent: a span in its parent's trace
            self.trace_id = under.trace_id
            self.root = SpanRecord(
                new_id(), self.trace_id, under.id, f"subagent {info.metadata.get('agent', '')}".strip(), "general"
            )
            self.root.input, self.root.metadata = {"prompt": prompt}, dict(info.metadata)
        else:
            self.trace_id = new_id()
            metadata = dict(info.metadata)
            self.trace = TraceRecord(self.trace_id, info.name, {"prompt": prompt}, info.thread_id, metadata)
        self.tool_spans: dict[str, SpanRecord] = {}
        """The tool calls running now, by call id (a subagent's turn looks for its call here)."""
        self._request_start = now()
        self._request_text: list[str] = []

    @property
    def parent_id(self) -> str | None:
        """The span this turn's steps hang under: the subagent's own span, or none (the trace)."""
        return self.root.id if self.root is not None else None

    async def watch(self, events: AsyncIterator[AgentEvent]) -> AsyncGenerator[AgentEvent, None]:
        """`events`, unchanged; the trace is written when they end, however they end."""
        token = _current.set(self)
        answer: str | None = None
        try:
            async for event in events:
                self._see(event)
                if isinstance(event, TurnFinished):
                    answer = event.output
                yield event
        except BaseException as exc:  # a failed or cancelled turn still ends its trace
            self._finish(None, ErrorInfo.of(exc) if str(exc) else ErrorInfo(type(exc).__name__, "cancelled"))
            raise
        else:
            self._finish(answer, None if answer is not None else ErrorInfo("Unfinished", "the turn gave no answer"))
        finally:
            with suppress(ValueError):  # the stream was closed from another context (an abandoned generator)
                _current.reset(token)

    def _see(self, event: AgentEvent) -> None:
        if isinstance(event, TextDelta):
            self._request_text.append(event.text)
        elif isinstance(event, UsageUpdated):
            usage = event.request
            span = SpanRecord(
                new_id(), self.trace_id, self.parent_id, "model request", "llm", start=self._request_start
            )
            span.end, span.model, span.provider = now(), self.info.model, provider_of(self.info.model)
            span.input = {"request": event.total.requests}
            span.output = {"text": "".join(self._request_text)}
            span.usage = {
                "prompt_tokens": usage.input_tokens,
                "completion_tokens": usage.output_tokens,
                "total_tokens": usage.total_tokens,
            }
            span.cost_usd = usage.cost_usd
            span.metadata = {"cost_usd": usage.cost_usd}
            self.sink.write_span(span)
            self._request_text.clear()
        elif isinstance(event, ToolCallStarted):
            call = event.call
            span = SpanRecord(new_id(), self.trace_id, self.parent_id, call.name, "tool", input=dict(call.args))
            span.metadata = {"call_id": call.id}
            self.tool_spans[call.id] = span
        elif isinstance(event, ToolCallFinished):
            result = event.result
            span = self.tool_spans.pop(result.call_id, None)
            if span is None:
                return
            span.end = now()
            verdict = outcome(result)
            span.output = {"outcome": verdict, "content": result.content}
            span.metadata.update(outcome=verdict, duration_s=round(result.duration_s, 6))
            if verdict != "ok":
                span.error = ErrorInfo(verdict, result.content[:500])
            self.sink.write_span(span)
            self._request_start = now()  # the next request starts once the tools are done

    def _finish(self, answer: str | None, error: ErrorInfo | None) -> None:
        end = now()
        for span in self.tool_spans.values():  # calls cut short with the turn
            span.end, span.error = end, error
            self.sink.write_span(span)
        self.tool_spans.clear()
        output = {"answer": answer} if answer is not None else None
        if self.root is not None:
            self.root.end, self.root.output, self.root.error = end, output, error
            self.sink.write_span(self.root)
        elif self.trace is not None:
            self.trace.end, self.trace.output, self.trace.error = end, output, error
            self.sink.write_trace(self.trace)


Describe = Callable[[], TurnInfo]
"""Reads the turn's `TurnInfo` when it starts (the model, agent and mode may have changed since the last)."""
