"""What a subagent takes from the conversation that spawns it: its fence, its mode, its place.

A child's mode is its agent's, never looser than its parent's (`child_mode`); it runs behind its
parent's gate (`Parent.gate`, the Permission Fence), asks through its parent's approval prompt,
labelled (`labelled`), and takes a place in its tree (`Tree`): however deep subagents nest, at
most `limit` of one primary conversation's run at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from decode.context.session import Session
from decode.context.session_log import SessionHeader, SessionLog
from decode.entities.events import SubagentProgress
from decode.permissions.hook import ApproveCallback, Asking
from decode.permissions.types import Mode, Verdict

if TYPE_CHECKING:
    from pydantic_ai.models import Model

    from decode.permissions.gate import PermissionGate

OnSubagent = Callable[[SubagentProgress], None]
"""How a front end hears of each subagent's progress (`LoopOptions.on_subagent`)."""
LOOSENESS = (Mode.PLAN, Mode.DEFAULT, Mode.ACCEPT_EDITS, Mode.BYPASS)
"""The modes from the strictest to the loosest."""


def child_mode(parent: Mode, own: Mode | None) -> Mode:
    """A subagent's mode: its agent's, never looser than its parent's; the parent's when it names none."""
    if own is None:
        return parent
    return min(parent, own, key=LOOSENESS.index)


@dataclass(frozen=True)
class Parent:
    """What a subagent takes from the conversation that spawns it (`LoopOptions.parent`)."""

    gate: PermissionGate
    """Its fence: the child's gate shares its rules and never loosens its verdicts."""
    session: Session
    agent_id: str
    model: Model | str | None
    """The parent's model, for a child that inherits it; None: the child resolves its own."""
    depth: int = 1
    mcp: Any = None
    """The parent's MCP servers, for a child whose agent lists `mcp__…` tools."""
    tree: Tree | None = None
    """The running subagents of the whole tree, which a child that spawns counts in too."""
    call_id: str = ""  # [lesson 22]
    """The parent's `agent` tool call the child runs in: its trace hangs under that call's span."""

    def child_session(self, model: str, mode: Mode | None, settings: Any) -> Session:
        """The child's session: a log of its own beside the parent's, written when its turn ends."""
        parent_log = self.session.log.path
        path = parent_log.with_name(f"{parent_log.stem}.agents") / f"{self.agent_id}.jsonl"
        mode_name = mode.value if mode is not None else None
        header = SessionHeader(session_id=self.agent_id, cwd=self.session.log.header.cwd, model=model, mode=mode_name)
        return Session(SessionLog(path, header), model=model, mode=mode_name, settings=settings)


class Tree:
    """Every subagent running under one primary conversation, however deep: at most `limit` at once.

    A child of the primary agent waits for a place; a nested one finding none is refused at once
    (waiting could deadlock: the places are held by its ancestors, which wait for it)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.places = asyncio.Semaphore(limit)
        self.running = 0
        self.peak = 0
        """The most subagents of the tree that ran at the same time."""


def labelled(approve: ApproveCallback, label: str, call_id: str) -> ApproveCallback:
    """The parent's approval prompt, saying which subagent asks; it waits as the parent's `agent` call."""

    async def ask(tool: str, args: dict[str, Any], verdict: Verdict) -> Any:
        reason = f"{label} asks: {verdict.reason}"
        if isinstance(verdict, Asking):
            return await approve(tool, args, replace(verdict, reason=reason, call_id=call_id or verdict.call_id))
        return await approve(tool, args, replace(verdict, reason=reason))

    return ask
