"""The Priority Gate: when does a message the user sends reach the model?

    nothing running                        ──▶ a turn of its own, now
    a turn running, Enter      (steer)     ──▶ that turn, before the model's next request
    a turn running, Alt+Enter  (follow-up) ──▶ that turn, when it would otherwise end
    a /command's prompt while a turn runs  ──▶ a turn of its own, after the running one

Steering and following up are pydantic-ai's own message queue: `AgentRun.enqueue(text,
priority="asap" | "when_idle")` (ADR-0026). The gate hands the message to the running turn's run
and keeps it *in flight* until the Agent Loop reports it delivered (a `MessageDelivered` event).
A message the run never delivered — the turn was aborted or failed first — is handed back
(`take_back()`), so nothing the user typed is lost.

Nothing here imports pydantic-ai at module level: the REPL draws its prompt before the agent loads.
"""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from pydantic_ai.run import AgentRun


class Priority(StrEnum):
    """How urgently a message should reach the model."""

    STEER = "steer"
    """Into the running turn, before the model's next request (pydantic-ai's `asap`)."""
    FOLLOW_UP = "follow-up"
    """Into the running turn, when it would otherwise end (pydantic-ai's `when_idle`)."""
    TURN = "turn"
    """A turn of its own, once nothing else runs."""


_ENQUEUE_PRIORITY: dict[Priority, Literal["asap", "when_idle"]] = {
    Priority.STEER: "asap",
    Priority.FOLLOW_UP: "when_idle",
}


@dataclass(frozen=True)
class Message:
    """Something the user sent the agent: `text` is what the model gets, `shown` what the transcript shows."""

    text: str
    priority: Priority = Priority.TURN
    shown: str = ""
    """Set when it differs from `text` (a skill's whole prompt is shown as `/name argument`)."""
    enqueue_id: str | None = None
    """pydantic-ai's id for it, once a running turn has taken it."""

    @property
    def display(self) -> str:
        return self.shown or self.text


class PriorityGate:
    """Routes messages into the running turn or the queue of turns, and remembers what is undelivered."""

    def __init__(self) -> None:
        self._turns: deque[Message] = deque()
        self._arrived = asyncio.Event()
        self._in_flight: dict[str, Message] = {}

    def send(self, message: Message, run: AgentRun[Any, Any] | None) -> Message:
        """Route `message`; `run` is the running turn's pydantic-ai run (None when nothing runs).

        Returns the message as routed: a steer or follow-up with no run to take it becomes a turn.
        """
        if message.priority is not Priority.TURN and run is not None:
            enqueue_id = _enqueue(run, message)
            if enqueue_id is not None:
                message = replace(message, enqueue_id=enqueue_id)
                self._in_flight[enqueue_id] = message
                return message
        message = replace(message, priority=Priority.TURN)
        self._turns.append(message)
        self._arrived.set()
        return message

    async def next_turn(self) -> Message:
        """Wait for the next message that starts a turn."""
        while not self._turns:
            self._arrived.clear()
            await self._arrived.wait()
        return self._turns.popleft()

    def delivered(self, enqueue_id: str) -> Message | None:
        """The running turn gave the message with this id to the model: it is no longer in flight."""
        return self._in_flight.pop(enqueue_id, None)

    def take_back(self, *, queued_turns: bool = False) -> list[Message]:
        """Empty the in-flight messages (and, with `queued_turns`, the queued turns) and return them."""
        taken = list(self._in_flight.values())
        self._in_flight.clear()
        if queued_turns:
            taken.extend(self._turns)
            self._turns.clear()
        return taken

    def pending(self) -> list[Message]:
        """Everything sent and not yet given to the model: in flight first, then the queued turns."""
        return [*self._in_flight.values(), *self._turns]


def _enqueue(run: AgentRun[Any, Any], message: Message) -> str | None:
    """Hand `message` to `run`; None when the run has just ended and takes nothing more."""
    from pydantic_ai.exceptions import UserError

    try:
        return run.enqueue(message.text, priority=_ENQUEUE_PRIORITY[message.priority])
    except UserError:  # the run closed its queue on its way out: the message becomes a turn
        return None
