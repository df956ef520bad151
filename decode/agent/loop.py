"""The Agent Loop: one turn of ReAct (reason → call tools → observe → …) as a stream of events.

pydantic-ai's `agent.iter()` walks the run node by node: a *model request* node (the model
thinks and answers, streamed) then a *call tools* node (the tools it asked for run), again and
again until the model answers without calling a tool. `AgentLoop.run_turn()` turns that walk into
decode's own typed events (`entities/events.py`) and keeps the conversation's history and usage.
The loop never prints: front ends render the events.
"""

import time
from collections.abc import AsyncIterator, Sequence
from typing import Any

from pydantic_ai import Agent
from pydantic_ai.messages import (
    FunctionToolCallEvent,
    FunctionToolResultEvent,
    ModelMessage,
    PartDeltaEvent,
    PartStartEvent,
    RetryPromptPart,
    TextPart,
    TextPartDelta,
    ThinkingPart,
    ThinkingPartDelta,
    ToolCallPart,
    UserContent,
)
from pydantic_ai.models import Model
from pydantic_ai.run import AgentRun, AgentRunResult
from pydantic_ai.usage import UsageLimits

from decode.agent.results import escaped, keep_safe
from decode.agent.steering import delivered
from decode.collector import resume as resume_collections
from decode.context.compaction import CompactionError
from decode.context.session import Session, UnfinishedTurn, unsaved
from decode.entities.deps import AgentDeps
from decode.entities.events import (
    AgentEvent,
    Notice,
    TextDelta,
    ThinkingDelta,
    TodosUpdated,
    ToolCallFinished,
    ToolCallStarted,
    TurnFinished,
    UsageUpdated,
)
from decode.entities.tool_calls import ToolCall, ToolResult
from decode.entities.usage import Usage
from decode.hooks.dispatch import Hooks
from decode.models.cost import response_usage


class AgentLoop:
    """A conversation with the agent: run turns, keep the history and the running usage."""

    def __init__(
        self,
        agent: Agent[AgentDeps, str],
        deps: AgentDeps,
        *,
        model: Model | str | None = None,
        max_requests: int = 50,
        session: Session | None = None,  # [lesson 11]
    ) -> None:
        self.agent = agent
        self.deps = deps
        chosen = model if model is not None else agent.model
        if chosen is None:
            raise ValueError("the agent has no model: give one to the agent or to the loop")
        self.model: Model | str = chosen
        """The model of the next request; front ends swap it here (`/model`), the rest stays."""
        self.max_requests = max_requests
        self.history: list[ModelMessage] = []
        self.usage = Usage()
        self.usage_elsewhere = Usage()  # [lesson 15]
        # [lesson 11]
        # Optional: the Session Log and compaction. Without it, nothing is saved.
        self.session = session
        self.unfinished: UnfinishedTurn | None = None
        """What the last turn had done when it failed or was cancelled, for a front end that keeps
        it (`decode run` saves it, so the run can be resumed); None after a turn that finished."""
        self.saved = False
        """Whether the last turn, finished or kept partial (`keep_turn`), is in the Session Log."""
        # [/lesson 11]
        self.hooks: Hooks | None = None  # [lesson 12]
        """The conversation's hooks: the harness runs those around each turn (None: none configured)."""
        self.run: AgentRun[AgentDeps, str] | None = None  # [lesson 10]
        """The pydantic-ai run of the turn in progress, None between turns. The Harness enqueues the
        user's steering messages into it; the loop reports each one the model receives (`MessageDelivered`)."""

    async def run_turn(self, prompt: str | Sequence[UserContent]) -> AsyncIterator[AgentEvent]:
        """Run one user turn, yielding events as they happen; the last one is `TurnFinished`.

        `prompt` is the user's text, or pydantic-ai's user content: the text and the images attached to it.

        Errors (a model failure, the request ceiling) propagate as pydantic-ai's exceptions; the
        history is only extended when the turn completes, so a failed or cancelled turn leaves it
        valid.
        """
        # [lesson 11]
        self.unfinished, self.saved = None, False
        if self.session is not None and self.session.needs_summary(self.history):
            if self.hooks is not None:  # PreCompact, `auto`: heard, never stopping it  # [lesson 12]
                await self.hooks.pre_compact("auto")
            yield await self.compact()
        # [/lesson 11]
        turn_usage = Usage()
        self.usage_elsewhere = Usage()  # [lesson 15]
        limits = UsageLimits(request_limit=self.max_requests)
        model = self.model
        if self.session is not None:  # [lesson 11]
            model = self.session.pruned(model)  # tier-1 pruning, at the model layer
        async with self.agent.iter(
            prompt, deps=self.deps, message_history=self.history, model=model, usage_limits=limits
        ) as run:
            # [lesson 10]
            self.run = run
            try:
                async for event in self._walk(run):
                    if isinstance(event, UsageUpdated):
                        turn_usage = turn_usage + event.request
                    yield event
            # [lesson 11]
            except BaseException:
                self.unfinished = UnfinishedTurn(list(run.all_messages()), list(run.new_messages()), turn_usage)
                raise
            # [/lesson 11]
            finally:
                self.run = None
            # [before lesson 10]
            # async for event in self._walk(run):
            #     if isinstance(event, UsageUpdated):
            #         turn_usage = turn_usage + event.request
            #     yield event
            # [/lesson 10]
            assert run.result is not None  # the walk ends only at the End node
            turn_usage = turn_usage + self.usage_elsewhere  # its subagents spent it for this turn  # [lesson 15]
            for event in self._finish(run.result, turn_usage):
                yield event

    async def _walk(self, run: AgentRun[AgentDeps, str]) -> AsyncIterator[AgentEvent]:
        """The run's nodes as events: a model request streams its answer, a tool node its calls and results."""
        started: dict[str, float] = {}  # tool call id -> when it started
        shown: dict[str, tuple[ToolCallPart, dict[str, Any]]] = {}  # each call, its arguments as shown  # [lesson 12]
        todos = list(self.deps.todos)  # [lesson 13]
        async for node in run:
            if Agent.is_model_request_node(node):
                async with node.stream(run.ctx) as stream:
                    async for event in stream:
                        resume_collections()  # the answer has begun: start-up is over (decode/collector.py)
                        if (delta := _model_delta(event)) is not None:
                            delta.text = valid_text(delta.text)
                            yield delta
                        elif (message := delivered(event)) is not None:  # [lesson 10]
                            yield message  # a steer or follow-up reached the model  # [lesson 10]
                request = response_usage(stream.response)
                self.usage = self.usage + request
                yield UsageUpdated(request=request, total=self.usage)
            elif Agent.is_call_tools_node(node):
                async with node.stream(run.ctx) as stream:
                    async for event in stream:
                        if isinstance(event, FunctionToolCallEvent):
                            started[event.tool_call_id] = time.monotonic()
                            call = _tool_call(event)
                            shown[event.tool_call_id] = (event.part, call.args)  # [lesson 12]
                            yield ToolCallStarted(call=call)
                        elif isinstance(event, FunctionToolResultEvent):
                            keep_safe(event.part)  # JSON-safe before it is shown, kept or sent
                            began = started.pop(event.tool_call_id, time.monotonic())
                            result = _tool_result(event, time.monotonic() - began)
                            result.args = rewritten(*shown.pop(event.tool_call_id, (None, None)))  # [lesson 12]
                            yield ToolCallFinished(result=result)
                            if self.deps.todos != todos:  # a tool (todo_write) changed the To-do List  # [lesson 13]
                                todos = list(self.deps.todos)
                                yield TodosUpdated(todos=todos)

    def add_usage(self, usage: Usage) -> None:  # [lesson 15]
        """Count what work done for this conversation outside its own requests cost (a subagent's):
        in the running total now, and in the turn's usage when it finishes."""
        self.usage = self.usage + usage
        self.usage_elsewhere = self.usage_elsewhere + usage

    def _finish(self, result: AgentRunResult[str], usage: Usage) -> list[AgentEvent]:
        """Keep the finished turn, then say it finished: the events that close a turn."""
        finished = TurnFinished(output=valid_text(str(result.output)), usage=usage)
        # [lesson 11]
        # On disk before anyone is told the turn finished; a disk that refuses (read-only, full, a
        # message that cannot be written) loses no answer: a warning follows `TurnFinished`.
        try:
            self.keep_turn(result.all_messages(), result.new_messages(), usage)
        except (OSError, ValueError) as exc:
            return [finished, unsaved(exc)]
        # [before lesson 11]
        # self.keep_turn(result.all_messages(), result.new_messages(), usage)
        # [/lesson 11]
        return [finished]

    def keep_turn(self, history: Sequence[ModelMessage], new_messages: Sequence[ModelMessage], usage: Usage) -> None:
        """Make `history` the conversation once a turn is over; `new_messages` and `usage` are that turn's own."""
        self.history = list(history)
        if self.session is not None:  # [lesson 11]
            self.session.record_turn(new_messages, usage, history_length=len(self.history))
            self.saved = True

    async def compact(self, focus: str | None = None) -> Notice:  # [lesson 11]
        """Summarise the older history now (tier-2 compaction, `/compact`); the notice says how it went."""
        if self.session is None:
            return Notice(level="warning", message="this conversation has no session, so it cannot be compacted")
        try:
            compaction = await self.session.compact(self.history, self.model, focus)
        except CompactionError as exc:
            self.usage = self.usage + (exc.usage or Usage())  # a request made in vain still counts
            return Notice(level="warning", message=f"compaction failed: {exc}; the history is unchanged")
        self.history = compaction.history
        self.usage = self.usage + compaction.usage
        return Notice(message=compaction.describe())

    def clear(self) -> None:
        """Forget the conversation (the usage totals stay: they count all this loop has spent)."""
        self.history = []
        if self.session is not None:  # [lesson 11]
            self.session.record_clear()


def valid_text(text: str) -> str:
    """`text` with any lone surrogate (`\\ud800`, which a provider's JSON may carry) as U+FFFD: text that
    every output format, the terminal and the session log can encode as UTF-8."""
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "replace")


def _model_delta(event: object) -> TextDelta | ThinkingDelta | None:
    """Text and thinking as they stream; other model events (tool-call parts) are not shown."""
    if isinstance(event, PartStartEvent):
        if isinstance(event.part, TextPart) and event.part.content:
            return TextDelta(text=event.part.content)
        if isinstance(event.part, ThinkingPart) and event.part.content:
            return ThinkingDelta(text=event.part.content)
    elif isinstance(event, PartDeltaEvent):
        if isinstance(event.delta, TextPartDelta) and event.delta.content_delta:
            return TextDelta(text=event.delta.content_delta)
        if isinstance(event.delta, ThinkingPartDelta) and event.delta.content_delta:
            return ThinkingDelta(text=event.delta.content_delta)
    return None


def _tool_call(event: FunctionToolCallEvent) -> ToolCall:
    try:
        args = event.part.args_as_dict()
    except Exception:  # malformed JSON from the model: show it raw, pydantic-ai asks for a retry
        args = {"raw": str(event.part.args)}
    return ToolCall(id=event.tool_call_id, name=event.part.tool_name, args=escaped(args))


def rewritten(part: ToolCallPart | None, shown: dict[str, Any] | None) -> dict[str, Any] | None:  # [lesson 12]
    """The arguments a call ran with, when a PreToolUse hook changed them from those shown (else None)."""
    if part is None or shown is None:
        return None
    try:
        now = escaped(part.args_as_dict())
    except Exception:  # malformed JSON: nothing ran with other arguments
        return None
    return now if now != shown else None


def _tool_result(event: FunctionToolResultEvent, duration_s: float) -> ToolResult:
    part = event.part
    if isinstance(part, RetryPromptPart):
        return ToolResult(
            call_id=part.tool_call_id,
            name=part.tool_name or "",
            content=part.model_response(),
            is_error=True,
            duration_s=duration_s,
        )
    return ToolResult(
        call_id=part.tool_call_id,
        name=part.tool_name,
        content=part.model_response_str(),
        is_error=part.outcome != "success",  # `failed`, or `denied`: refused before it ran
        duration_s=duration_s,
    )
