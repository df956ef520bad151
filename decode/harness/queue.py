"""Messages, and the queue where they wait for a turn of their own.

The prompt stays on screen while a turn runs, so the user can send while the agent works. What
they send must not be lost: it waits here, in order, and the Turn Runner (`runner.py`) starts the
next turn when the running one ends. The front end lists (or counts) what waits; stopping the turn
empties the queue and hands the waiting messages back (`take_back()`), to be sent again or not.

Nothing here imports pydantic-ai: the REPL draws its prompt before the agent loads.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic_ai.messages import UserContent

    from decode.agent.loop import AgentLoop
    from decode.entities.events import AgentEvent

from decode.tools.mention_text import typed_part


class Priority(StrEnum):
    """How urgently a message should reach the model."""

    # [lesson 10]
    STEER = "steer"
    """Into the running turn, before the model's next request (pydantic-ai's `asap`)."""
    FOLLOW_UP = "follow-up"
    """Into the running turn, when it would otherwise end (pydantic-ai's `when_idle`)."""
    # [/lesson 10]
    TURN = "turn"
    """A turn of its own, once nothing else runs."""


@dataclass(frozen=True)
class Message:
    """Something the user sent the agent: `text` is what the model gets, `shown` what the transcript shows."""

    text: str
    priority: Priority = Priority.TURN
    shown: str = ""
    """Set when it differs from `text` (a command that sends a long prompt is shown as `/name argument`)."""
    notes: tuple[tuple[str, str], ...] = ()  # [lesson 04]
    """Lines shown under its echo, each with its level (`info`, `warning`): what its `@path` mentions
    attached (`text` carries it), or why not."""
    enqueue_id: str | None = None  # [lesson 10]
    """pydantic-ai's id for it, once a running turn has taken it."""
    run: Callable[[AgentLoop], AsyncIterator[AgentEvent]] | None = field(default=None, compare=False)  # [lesson 06]
    """What its turn runs instead of asking the model, with the Agent Loop (a Bash Mode `!command`)."""
    images: tuple[UserContent, ...] = field(default=(), compare=False)  # [lesson 04]
    """Images its `@path`s (or pasted image paths) attached: they go to the model after `text`."""
    scope: Callable[[AgentLoop], Callable[[], None]] | None = field(default=None, compare=False)  # [lesson 12]
    """What holds while its turn runs (a custom command's `allowed-tools` and `model`): called as
    the turn starts, it returns what undoes it, called as the turn ends however it ends."""

    @property
    def prompt(self) -> str | list[UserContent]:
        """What the model gets: `text` (and, from lesson 04 on, the images attached to it)."""
        # [lesson 04]
        return [self.text, *self.images] if self.images else self.text
        # [before lesson 04]
        # return self.text
        # [/lesson 04]

    @property
    def display(self) -> str:
        """What the transcript shows: `shown`, else `text` as the user typed it."""
        # [lesson 04]
        return self.shown or typed_part(self.text)  # without what its `@path`s attached
        # [before lesson 04]
        # return self.shown or self.text
        # [/lesson 04]


class TurnQueue:
    """The messages waiting for a turn of their own, oldest first."""

    def __init__(self) -> None:
        self._turns: deque[Message] = deque()
        self._arrived = asyncio.Event()

    def send(self, message: Message) -> Message:
        """Queue `message` as a turn of its own; returns it as queued."""
        self._turns.append(message)
        self._arrived.set()
        return message

    async def next_turn(self) -> Message:
        """Wait for the next message that starts a turn."""
        while not self._turns:
            self._arrived.clear()
            await self._arrived.wait()
        return self._turns.popleft()

    def take_back(self, *, queued_turns: bool = False) -> list[Message]:
        """With `queued_turns`, empty the queue and return what waited in it; else take nothing."""
        taken = list(self._turns) if queued_turns else []
        if queued_turns:
            self._turns.clear()
        return taken

    def pending(self) -> list[Message]:
        """Everything sent and not yet given to the model."""
        return list(self._turns)
