"""The Agent Loop with a Tracing Seam: each turn's events pass through a `TurnObserver`.

`agent_loop()` is what the composition root calls: the plain `AgentLoop` when tracing is off (then
no tracing module is imported, but its tiny `config`), a `TracedLoop` with the turn's metadata
(model, agent, permission mode, sandbox) when it is on.
"""

from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing
from typing import TYPE_CHECKING, Any, cast

from pydantic_ai import Agent
from pydantic_ai.models import Model

from decode.agent.loop import AgentLoop
from decode.entities.deps import AgentDeps
from decode.entities.events import AgentEvent
from decode.observability.config import tracing_configured

if TYPE_CHECKING:
    from decode.agent.compose import LoopOptions
    from decode.agents.active import ActiveAgent
    from decode.context.session import Session
    from decode.observability.observer import Describe, TurnInfo
    from decode.observability.sink import TraceSink
    from decode.permissions.gate import PermissionGate


class TracedLoop(AgentLoop):
    """An `AgentLoop` whose turns are traced: give it a sink and how to describe a turn (`trace_with`)."""

    sink: "TraceSink | None" = None
    describe: "Describe | None" = None

    def trace_with(self, sink: "TraceSink", describe: "Describe") -> None:
        self.sink, self.describe = sink, describe

    async def run_turn(self, prompt: str) -> AsyncIterator[AgentEvent]:
        if self.sink is None or self.describe is None:
            async for event in super().run_turn(prompt):
                yield event
            return
        from decode.observability.observer import TurnObserver

        observer = TurnObserver(self.sink, self.describe(), prompt)
        # Closed here, not when garbage collected: an abandoned turn (Esc) ends its trace at once.
        turn = cast(AsyncGenerator[AgentEvent, None], super().run_turn(prompt))
        async with aclosing(turn) as events, aclosing(observer.watch(events)) as watched:
            async for event in watched:
                yield event


def agent_loop(
    agent: Agent[AgentDeps, str],
    deps: AgentDeps,
    model: Model | str,
    max_requests: int,
    options: "LoopOptions",
    session: "Session",
    gate: "PermissionGate",
    active: "ActiveAgent",
) -> AgentLoop:
    """An `AgentLoop`, traced when tracing is configured (then, and only then, the tracing modules
    are imported: tracing off costs one settings check)."""
    if not tracing_configured(options.settings):
        return AgentLoop(agent, deps, model=model, max_requests=max_requests)
    from decode.observability.observer import TurnInfo
    from decode.observability.sink import open_sink

    sink = open_sink(options.settings)
    if sink is None:
        return AgentLoop(agent, deps, model=model, max_requests=max_requests)

    loop = TracedLoop(agent, deps, model=model, max_requests=max_requests)
    parent = options.parent
    call_id = parent.call_id if parent is not None else ""
    name = options.trace_name

    def describe() -> "TurnInfo":
        model_name = session.model or options.settings.model
        metadata: dict[str, Any] = {
            "model": model_name,
            "agent": active.definition.name,
            "permission_mode": gate.mode.value,
            "sandbox": options.sandbox or options.settings.sandbox_mode,  # a resumed one is in options
            "session_id": session.session_id,
        }
        return TurnInfo(name, session.session_id, model_name, metadata, call_id)

    loop.trace_with(sink, describe)
    return loop
