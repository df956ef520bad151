"""The Priority Gate: when does a message the user sends reach the model?

    nothing running                        ──▶ a turn of its own, now
    a turn running, Enter      (steer)     ──▶ that turn, before the model's next request
    a turn running, Alt+Enter  (follow-up) ──▶ that turn, when it would otherwise end
    a /command's prompt while a turn runs  ──▶ a turn of its own, after the running one

Steering and following up are pydantic-ai's own message queue: `AgentRun.enqueue(text,
priority="asap" | "when_idle")` (ADR-0026). The gate hands the message to the running turn's run
and keeps it *in flight* until the Agent Loop reports it delivered (a `MessageDelivered` event).
A message the run never delivered — the turn was aborted or failed first — is handed back
(`take_back()`), so nothing the user typed is lost. The turns themselves wait in the queue the
gate extends (`queue.py`, where `Message` and its `Priority` are defined).

Nothing here imports pydantic-ai at module level: the REPL draws its prompt before the agent loads.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from decode.harness.queue import Message, Priority, TurnQueue

if TYPE_CHECKING:
    from pydantic_ai.run import AgentRun

__all__ = ["Message", "Priority", "PriorityGate"]

_ENQUEUE_PRIORITY: dict[Priority, Literal["asap", "when_idle"]] = {
    Priority.STEER: "asap",
    Priority.FOLLOW_UP: "when_idle",
}


class PriorityGate(TurnQueue):
    """Routes messages into the running turn or the queue of turns, and remembers what is undelivered."""

    def __init__(self) -> None:
        super().__init__()
        self._in_flight: dict[str, Message] = {}

    def send(self, message: Message, run: AgentRun[Any, Any] | None = None) -> Message:
        """Route `message`; `run` is the running turn's pydantic-ai run (None when nothing runs).

        Returns the message as routed: a steer or follow-up with no run to take it becomes a turn.
        """
        if message.priority is not Priority.TURN and run is not None:
            enqueue_id = _enqueue(run, message)
            if enqueue_id is not None:
                message = replace(message, enqueue_id=enqueue_id)
                self._in_flight[enqueue_id] = message
                return message
        return super().send(replace(message, priority=Priority.TURN))

    def delivered(self, enqueue_id: str) -> Message | None:
        """The running turn gave the message with this id to the model: it is no longer in flight."""
        return self._in_flight.pop(enqueue_id, None)

    def take_back(self, *, queued_turns: bool = False) -> list[Message]:
        """Empty the in-flight messages (and, with `queued_turns`, the queued turns) and return them."""
        taken = list(self._in_flight.values())
        self._in_flight.clear()
        return [*taken, *super().take_back(queued_turns=queued_turns)]

    def pending(self) -> list[Message]:
        """Everything sent and not yet given to the model: in flight first, then the queued turns."""
        return [*self._in_flight.values(), *super().pending()]


def _enqueue(run: AgentRun[Any, Any], message: Message) -> str | None:
    """Hand `message` to `run`; None when the run has just ended and takes nothing more."""
    from pydantic_ai.exceptions import UserError

    try:
        return run.enqueue(message.text, *message.images, priority=_ENQUEUE_PRIORITY[message.priority])
    except UserError:  # the run closed its queue on its way out: the message becomes a turn
        return None
