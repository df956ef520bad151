"""Subagents: the `agent` tool hands a task to another agent, which starts with a fresh history.

    parent's model ── agent(prompt, agent="explore", description) ──▶ Subagents.run()
        waits for a place (at most `max_subagents` children of one conversation run at once)
        ──▶ build_subagent(the child's LoopOptions)   the composition root's steps, with `parent` set
        ──▶ child.run_turn(prompt)                     SubagentProgress on each step (`on_subagent`)
        ◀── its final text, cut to `subagent_report_chars`: the tool's result (never its transcript)

A child runs within a request cap and a time cap; stopping it there (or an error) still hands
the parent a result it can act on. Its usage is added to the parent's. Its transcript is a
session log of its own beside the parent's: `.decode/sessions/<parent log>.agents/<agent id>.jsonl`.
Aborting the parent's turn cancels the `agent` call, and so the child's run and its commands.

A child's permissions are fenced by its parent's (`PermissionGate.fenced`): the same rules, a
mode never looser than the parent's (plan mode propagates), and every verdict held to the
parent's. Its approvals go to the parent's `approve`, labelled with the child's name; no one
answers its questions (`ask_user`): its answer goes to the parent, which talks to the user.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any

from pydantic_ai import ModelRetry, RunContext

from decode.agents.catalog import AgentCatalog, UnknownAgentError
from decode.agents.definition import AGENT_TOOL, AgentDefinition
from decode.agents.lineage import Parent, Tree, child_mode, labelled
from decode.entities.deps import AgentDeps
from decode.entities.events import (
    AgentEvent,
    SubagentProgress,
    TextDelta,
    ToolCallStarted,
    TurnFinished,
    UsageUpdated,
)
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits
from decode.hooks.events import HookEvent
from decode.models.errors import ModelConfigError
from decode.permissions.rules import SUBAGENT_RULES

if TYPE_CHECKING:
    from decode.agent.loop import AgentLoop
    from decode.agent.options import Conversation, LoopOptions
    from decode.config.settings import Settings
    from decode.context.session import Session
    from decode.permissions.gate import PermissionGate

logger = logging.getLogger(__name__)

MAX_DEPTH = 3
"""How deep subagents may nest (a child's child…), for agents that list the `agent` tool."""
DESCRIPTION_CHARS = 80
"""A child's description is one line for the user: the model's words, shortened to this."""
AGENT_TRAITS = ToolTraits(ToolKind.SIDE_EFFECT_FREE, rules=SUBAGENT_RULES, subject="agent")
"""It changes nothing itself: each of the child's calls is judged by the child's (fenced) gate.
`Agent` (or `Task`) rules name it, `Agent(explore)` one agent: a deny keeps that subagent from starting."""


def cut(text: str, limit: int, where: str) -> str:
    """`text` within `limit` characters: its start, then how much was left out and where it is."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n… [{len(text) - limit} more characters: the whole answer is in {where}]"


class Subagents:
    """The `agent` tool of one conversation: spawns its children, at most `max_subagents` at a time."""

    def __init__(
        self, catalog: AgentCatalog, options: LoopOptions, settings: Settings, depth: int = 0, tree: Tree | None = None
    ) -> None:
        self.catalog = catalog
        self.options = options
        self.settings = settings
        self.depth = depth
        self.places = asyncio.Semaphore(settings.max_subagents)
        self.tree = tree or Tree(settings.max_subagents * MAX_DEPTH)
        self.running = 0
        self.peak = 0
        """The most children that ran at the same time (what the limit holds down)."""
        self.reports: list[str] = []
        """Each child's final answer, in the order they finished."""
        self._parent: tuple[AgentLoop, PermissionGate, Session, Any] | None = None

    def attach(self, loop: AgentLoop, gate: PermissionGate, session: Session, mcp: Any = None) -> None:
        """The conversation the children are spawned from (the composition root calls it)."""
        self._parent = (loop, gate, session, mcp)

    def tool(self) -> ToolSpec:
        """The `agent` tool, its description listing the agents it can run."""

        async def run_agent(
            ctx: RunContext[AgentDeps], prompt: str, agent: str = "explore", description: str = ""
        ) -> str:
            return await self.run(ctx, prompt, agent, description)

        listed = "\n".join(f"- {name}: {self.catalog.agents[name].description}" for name in self.catalog.names())
        run_agent.__doc__ = AGENT_DOC.format(agents=listed)
        return ToolSpec(AGENT_TOOL, run_agent, AGENT_TRAITS)

    async def run(self, ctx: RunContext[AgentDeps], prompt: str, agent: str, description: str) -> str:
        """Run one child to its answer; what the tool returns (a stopped child says why)."""
        description = " ".join(description.split())
        if len(description) > DESCRIPTION_CHARS:
            description = description[: DESCRIPTION_CHARS - 1] + "…"
        try:
            definition = self.catalog.get(agent)
        except UnknownAgentError as exc:
            raise ModelRetry(str(exc)) from None
        if self._parent is None:
            raise RuntimeError("Subagents.attach() was not called")
        if self.depth >= MAX_DEPTH:
            return f"Not started: subagents nest at most {MAX_DEPTH} deep. Do this task yourself."
        agent_id = f"{definition.name}-{secrets.token_hex(4)}"
        progress = SubagentProgress(
            call_id=ctx.tool_call_id or "", agent_id=agent_id, agent=definition.name, description=description
        )
        async with self.places:
            tree = self.tree
            if self.depth > 0 and tree.places.locked():
                return (
                    f"Not started: {tree.running} subagents are running already, the most at once "
                    f"({tree.limit}). Do this task yourself."
                )
            async with tree.places:
                self.running, tree.running = self.running + 1, tree.running + 1
                self.peak, tree.peak = max(self.peak, self.running), max(tree.peak, tree.running)
                try:
                    try:
                        child = self._build(definition, agent_id, progress.call_id, description)
                    except ModelConfigError as exc:  # its model needs a key this user has not got (here)
                        why = f"agent {definition.name}'s model cannot be used ({exc})"
                        return f"Not started: {why}. Do this task yourself."
                    return await self._drive(child, prompt, progress)
                finally:
                    self.running, tree.running = self.running - 1, tree.running - 1

    def _build(self, definition: AgentDefinition, agent_id: str, call_id: str, description: str) -> Conversation:
        from decode.agent.compose_agents import build_subagent
        from decode.agent.options import LoopOptions

        assert self._parent is not None
        loop, gate, session, mcp = self._parent
        options, settings = self.options, self.settings
        inherit = definition.inherits_model and not settings.subagent_model
        model = (settings.subagent_model or session.model) if definition.inherits_model else definition.model
        label = f"subagent {definition.name}" + (f" ({description})" if description else "")
        # [lesson 22]
        model_object = loop.model if inherit else None
        parent = Parent(gate, session, agent_id, model_object, self.depth + 1, mcp, self.tree, call_id)
        # [before lesson 22]
        # parent = Parent(gate, session, agent_id, loop.model if inherit else None, self.depth + 1, mcp, self.tree)
        # [/lesson 22]
        child_options = LoopOptions(
            home=options.home,
            model=model,
            max_requests=settings.subagent_max_requests,
            on_retry=options.on_retry,
            tools=options.tools,
            executor=loop.deps.executor,
            permission_mode=child_mode(gate.mode, definition.permission_mode),
            approve=labelled(options.approve, label, call_id) if options.approve is not None else None,
            agent=definition,
            on_subagent=options.on_subagent,
            on_subagent_event=options.on_subagent_event,  # [lesson 20]
            parent=parent,
            mcp=False,  # its parent's servers, if its agent lists them: none of its own
        )
        return build_subagent(child_options, settings)

    async def _drive(self, child: Conversation, prompt: str, progress: SubagentProgress) -> str:
        settings = self.settings
        started = time.monotonic()
        said: list[str] = []  # the text since its last tool call: its answer so far
        answer: str | None = None
        stopped = ""
        self._tell(progress)
        try:
            async with asyncio.timeout(settings.subagent_timeout):
                async for event in child.loop.run_turn(prompt):
                    self._relay(progress.call_id, event)  # [lesson 20]
                    if isinstance(event, ToolCallStarted):
                        said.clear()
                        progress.last_tool, progress.tools = event.call.summary(40), progress.tools + 1
                        self._tell(progress)
                    elif isinstance(event, UsageUpdated):
                        progress.requests = event.total.requests
                    elif isinstance(event, TextDelta):
                        said.append(event.text)
                    elif isinstance(event, TurnFinished):
                        answer = event.output
                if child.loop.hooks is not None:  # its SubagentStop hooks: heard, they do not send it back
                    await child.loop.hooks.fire(HookEvent.SUBAGENT_STOP, stop_hook_active=False)
        except TimeoutError:
            stopped = f"stopped at its time cap ({settings.subagent_timeout:g} s)"
        except Exception as exc:
            stopped = _why_stopped(exc, settings.subagent_max_requests)
            logger.debug("subagent %s stopped", progress.agent_id, exc_info=True)
        finally:  # a cancelled child (its parent was aborted) is counted and kept too
            self._parent_loop().add_usage(child.loop.usage)
            if answer is None:
                _keep_unfinished(child)
            progress.requests = child.loop.usage.requests
            progress.state = "failed" if answer is None else "finished"
            self._tell(progress)
        where = f".decode/sessions/{child.session.log.path.parent.name}/{child.session.log.path.name}"
        seconds = time.monotonic() - started
        heading = f"[subagent {progress.agent_id}: {_requests(progress.requests)}, {seconds:.1f} s"
        if answer is None:
            partial = "".join(said).strip()
            body = f"What it had said:\n{partial}" if partial else "It had not answered yet."
            return f"{heading}; {stopped} before it finished]\n{cut(body, settings.subagent_report_chars, where)}"
        self.reports.append(answer)
        return f"{heading}]\n{cut(answer, settings.subagent_report_chars, where)}"

    def _parent_loop(self) -> AgentLoop:
        assert self._parent is not None
        return self._parent[0]

    def _tell(self, progress: SubagentProgress) -> None:
        if self.options.on_subagent is not None:
            self.options.on_subagent(progress.model_copy())

    def _relay(self, call_id: str, event: AgentEvent) -> None:  # [lesson 20]
        """A child's event, to the front end that streams subagents' messages (stream-json)."""
        if self.options.on_subagent_event is not None:
            self.options.on_subagent_event(call_id, event)


def _requests(count: int) -> str:
    return f"{count} request" + ("" if count == 1 else "s")


def _why_stopped(error: Exception, cap: int) -> str:
    """Why a child stopped, for its parent's report: the line a front end shows for that failure
    (`agent/failures.py`), but its own request cap, which no `--max-requests` raises."""
    from pydantic_ai.exceptions import UsageLimitExceeded

    from decode.agent.failures import describe_failure

    if isinstance(error, UsageLimitExceeded):
        return f"stopped at its request cap ({cap})"
    return f"failed: {describe_failure(error, None).line}"


def _keep_unfinished(child: Conversation) -> None:
    """Write what a stopped child had done to its transcript (best effort: the parent goes on)."""
    unfinished = child.loop.unfinished
    if unfinished is None or not unfinished.new_messages:
        return
    try:
        child.session.record_turn(unfinished.new_messages, unfinished.usage)
    except (OSError, ValueError) as exc:
        logger.warning("could not save subagent %s's transcript: %s", child.session.session_id, exc)


AGENT_DOC = """Hand a self-contained task to a subagent: another agent that starts with a fresh, empty
context, works with its own tools, and returns only its final report to you.

Use it for a search or an investigation that would fill your context (explore), a review
(code-reviewer), or independent parts of a task. Several agent calls in one response run at the
same time. The subagent sees nothing of this conversation: put everything it needs in `prompt`
(what to find or do, where to look, what to report). Its report is not shown to the user: say
what matters in your own answer.

Agents:
{agents}

Args:
    prompt: The complete task for the subagent, with all the context it needs.
    agent: Which agent runs it (one of the names above).
    description: A few words saying what it does, shown to the user while it runs.
"""
