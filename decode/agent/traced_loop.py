"""The Agent Loop with a Tracing Seam: each turn's events pass through a `TurnObserver`.

`agent_loop()` is what the composition root calls: the plain `AgentLoop` when tracing is off (then
no tracing module is imported, but its tiny `config`), a `TracedLoop` with the turn's metadata
(model, agent, permission mode, sandbox) when it is on.
"""

from collections.abc import AsyncGenerator, AsyncIterator, Sequence
from contextlib import aclosing
from typing import TYPE_CHECKING, Any, cast

from pydantic_ai.messages import UserContent

from decode.agent.loop import AgentLoop
from decode.entities.events import AgentEvent
from decode.observability.config import tracing_configured

if TYPE_CHECKING:
    from decode.agent.build import Build
    from decode.observability.observer import Describe, TurnInfo
    from decode.observability.sink import TraceSink


class TracedLoop(AgentLoop):
    """An `AgentLoop` whose turns are traced: give it a sink and how to describe a turn (`trace_with`)."""

    sink: "TraceSink | None" = None
    describe: "Describe | None" = None

    def trace_with(self, sink: "TraceSink", describe: "Describe") -> None:
        self.sink, self.describe = sink, describe

    async def run_turn(self, prompt: str | Sequence[UserContent]) -> AsyncIterator[AgentEvent]:
        if self.sink is None or self.describe is None:
            async for event in super().run_turn(prompt):
                yield event
            return
        from decode.observability.observer import TurnObserver

        text = prompt if isinstance(prompt, str) else " ".join(item for item in prompt if isinstance(item, str))
        observer = TurnObserver(self.sink, self.describe(), text)  # the prompt's text, not its images
        # Closed here, not when garbage collected: an abandoned turn (Esc) ends its trace at once.
        turn = cast(AsyncGenerator[AgentEvent, None], super().run_turn(prompt))
        async with aclosing(turn) as events, aclosing(observer.watch(events)) as watched:
            async for event in watched:
                yield event


def agent_loop(b: "Build", max_requests: int) -> AgentLoop:
    """The Agent Loop of what `b` built, traced when tracing is configured (then, and only then,
    the tracing modules are imported: tracing off costs one settings check)."""
    settings = b.settings
    if not tracing_configured(settings):
        return AgentLoop(b.agent, b.deps, model=b.model, max_requests=max_requests)
    from decode.observability.observer import TurnInfo
    from decode.observability.sink import open_sink

    sink = open_sink(settings)
    if sink is None:
        return AgentLoop(b.agent, b.deps, model=b.model, max_requests=max_requests)

    loop = TracedLoop(b.agent, b.deps, model=b.model, max_requests=max_requests)
    options, session, gate, active = b.options, b.session, b.gate, b.active
    call_id = options.parent.call_id if options.parent is not None else ""

    def describe() -> "TurnInfo":
        model_name = settings.expand_alias(session.model or settings.model)  # a trace names the full model
        metadata: dict[str, Any] = {
            "model": model_name,
            "agent": active.definition.name,
            "permission_mode": gate.mode.value,
            "sandbox": options.sandbox or settings.sandbox_mode,  # a resumed one is in options
            "session_id": session.session_id,
        }
        return TurnInfo(options.trace_name, session.session_id, model_name, metadata, call_id)

    loop.trace_with(sink, describe)
    return loop
