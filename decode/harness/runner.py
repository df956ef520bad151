"""The Turn Runner: the user's turns, one at a time, and a way to stop the one that runs.

    send(message) ──▶ queued turn ──▶ work() ──▶ run_turn() ──▶ AgentLoop.run_turn()
                                                     │ events
                                                     ▼
                                        on_event (the front end draws them)
    abort() ── cancels the turn's task: the run is torn down (running tools are cancelled).

The front end hears every turn begin (`TurnStarted`) and end (`TurnEnded`: `finished`, `aborted` or
`failed` with a one-line reason); in between, the Agent Loop's own events. When a turn stops early,
the messages the model never got come back in `TurnEnded.returned` for the user to send again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from decode.agent.failures import Failure, describe_failure

# [lesson 10]
# The Priority Gate sits in front of the queue: a steer or a follow-up goes into the running run,
# and an aborted turn is closed (abort.py, bash kills its process group) and kept in the conversation.
from decode.harness.priority import PriorityGate

# [before lesson 10]
# from decode.harness.queue import TurnQueue
# [/lesson 10]
from decode.harness.queue import Message, Priority

if TYPE_CHECKING:
    from decode.agent.loop import AgentLoop
    from decode.entities.events import AgentEvent
    from decode.entities.usage import Usage

Outcome = Literal["finished", "aborted", "failed"]


@dataclass(frozen=True)
class TurnStarted:
    """A turn begins with `message` (the front end echoes `message.display`)."""

    message: Message
    kind: Literal["turn_started"] = "turn_started"


@dataclass(frozen=True)
class TurnEnded:
    """A turn is over: how it ended, why it failed, and the messages handed back to the user."""

    outcome: Outcome
    error: str = ""
    """Why it failed, the line every front end shows (`failure.line`)."""
    returned: tuple[Message, ...] = ()
    failure: Failure | None = None
    kind: Literal["turn_ended"] = "turn_ended"


class TurnRunner:
    """Runs turns of the Agent Loop that `agent_loop()` provides, reporting every event to `on_event`.

    `agent_loop` is awaited at the start of each turn: the REPL's waits for its warm-up and raises
    `LoopUnavailable` when there is no model. The REPL calls `work()` in a task, and `send()` and
    `abort()` from anywhere on the same event loop; `decode run` awaits `run_turn()` once.
    """

    def __init__(
        self,
        agent_loop: Callable[[], Awaitable[AgentLoop]],
        on_event: Callable[[AgentEvent | TurnStarted | TurnEnded], None],
    ) -> None:
        self.agent_loop = agent_loop
        self.on_event = on_event
        self.keep_failed = False  # True: a failed turn is kept too, with its cause (`decode run`)  # [lesson 11]
        # [lesson 10]
        self.queue = PriorityGate()
        self.abort_note: Callable[[], str | None] = lambda: None
        """The note an aborted turn is kept with (None: `[The user interrupted this turn.]`)."""
        # [before lesson 10]
        # self.queue = TurnQueue()
        # [/lesson 10]
        self.loop: AgentLoop | None = None
        """The Agent Loop of the running turn."""
        self._turn: asyncio.Task[TurnEnded] | None = None
        self._idle = asyncio.Event()

    @property
    def busy(self) -> bool:
        """True while a turn runs."""
        return self._turn is not None and not self._turn.done()

    def send(self, message: Message) -> Message:
        """Send `message` on its way to the model; returns it as routed (a turn of its own, or into the running one)."""
        # [lesson 10]
        run = self.loop.run if self.loop is not None and self.busy else None
        message = self.queue.send(message, run)
        # [before lesson 10]
        # message = self.queue.send(message)
        # [/lesson 10]
        if message.priority is Priority.TURN:
            self._idle.clear()
        return message

    def pending(self) -> list[Message]:
        """The messages sent and not yet given to the model (the front end lists them)."""
        return self.queue.pending()

    def abort(self) -> bool:
        """Stop the running turn now; False when nothing runs. The turn reports `TurnEnded("aborted")`."""
        if self._turn is None or self._turn.done():
            return False
        self._turn.cancel()
        return True

    async def stop(self) -> None:
        """Abort the running turn, if any, and wait until it has ended."""
        turn = self._turn
        if self.abort() and turn is not None:
            await asyncio.wait([turn])

    async def idle(self) -> None:
        """Wait until no turn runs and none is queued."""
        await self._idle.wait()

    async def work(self) -> None:
        """Run the queued turns one after the other, until cancelled (when the front end leaves)."""
        while True:
            if not self.queue.pending():
                self._idle.set()
            message = await self.queue.next_turn()
            self._turn = asyncio.create_task(self.run_turn(message))
            await asyncio.wait([self._turn])  # an abort cancels the turn, never the worker

    async def run_turn(self, message: Message) -> TurnEnded:
        """Run one turn with `message` as its prompt; never raises (the outcome says how it went)."""
        self.on_event(TurnStarted(message))
        finished = False
        from decode.entities.usage import Usage

        usage = Usage()  # what the turn's requests cost, kept with the partial turn if it is aborted  # [lesson 10]
        undo: Callable[[], None] | None = None  # [lesson 12]
        try:
            self.loop = await self.agent_loop()
            if message.scope is not None:  # a custom command's allowed-tools and model, for this turn  # [lesson 12]
                undo = message.scope(self.loop)
            events = self.loop.run_turn(message.prompt)  # an async generator: nothing runs until it is iterated
            if self.loop.hooks is not None:  # UserPromptSubmit, Stop…: the hooks around the turn  # [lesson 12]
                from decode.harness.hook_turns import hooked_turn

                events = hooked_turn(self.loop, self.loop.hooks, message.text, message.images)
            if message.run is not None:  # a Bash Mode `!command`: its own work, no model  # [lesson 06]
                events = message.run(self.loop)
            async for event in events:
                if event.kind == "turn_finished":
                    finished = True
                # [lesson 10]
                elif event.kind == "usage":
                    usage = usage + event.request
                elif event.kind == "message_delivered":
                    self.queue.delivered(event.message_id)
                # [/lesson 10]
                self.on_event(event)
            ended = TurnEnded("finished")
        # [lesson 10]
        except asyncio.CancelledError as cancelled:
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()  # the cancellation was the abort: this task lives on to report it
            if self.loop is not None and not finished and message.run is None:  # a `!command` keeps its own
                self._keep_partial_turn(self.loop, usage, self.abort_note(), cancelled)
            ended = TurnEnded(
                "finished" if finished else "aborted", returned=tuple(self.queue.take_back(queued_turns=True))
            )
        # [before lesson 10]
        # except asyncio.CancelledError:
        #     task = asyncio.current_task()
        #     if task is not None:
        #         task.uncancel()  # the cancellation was the abort: this task lives on to report it
        #     ended = TurnEnded(
        #         "finished" if finished else "aborted", returned=tuple(self.queue.take_back(queued_turns=True))
        #     )
        # [/lesson 10]
        except Exception as exc:
            failure = describe_failure(exc, self.loop)
            if self.keep_failed and self.loop is not None and message.run is None:  # [lesson 11]
                self._keep_partial_turn(self.loop, usage, f"[This turn stopped before it finished: {failure.cause}.]")
            ended = TurnEnded("failed", failure.line, tuple(self.queue.take_back()), failure)
        finally:
            if undo is not None:  # [lesson 12]
                undo()
            self.loop = None
        self.on_event(ended)
        return ended

    def _keep_partial_turn(  # [lesson 10]
        self, loop: AgentLoop, usage: Usage, note: str | None, cancelled: BaseException | None = None
    ) -> None:
        """Keep what the stopped run did, its orphan tool calls closed and `note` last (nothing, if
        it had not started); a disk that refuses is a warning, never a second failure."""
        from pydantic_ai.exceptions import RunCancelled

        from decode.entities.events import Notice
        from decode.harness.abort import INTERRUPTED_NOTE, close_interrupted_turn

        if cancelled is not None and (state := RunCancelled.from_cancellation(cancelled)) is not None:
            everything, new = state.all_messages(), state.new_messages()
        # [lesson 11]
        elif loop.unfinished is not None:  # stopped where the run attached nothing: the loop's own record
            everything, new = loop.unfinished.history, loop.unfinished.new_messages
        # [/lesson 11]
        else:  # stopped before the run began (waiting for the warm-up, say): nothing to keep
            return
        if not new:
            return
        kept = close_interrupted_turn(new, note or INTERRUPTED_NOTE)
        try:
            loop.keep_turn([*everything[: len(everything) - len(new)], *kept], kept, usage)
        except (OSError, ValueError) as exc:  # read-only, full: the turn is over all the same
            self.on_event(Notice(level="warning", message=f"could not save the session: {exc}"))
