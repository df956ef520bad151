"""The REPL's side of the Turn Runner: turns on screen, messages waiting, messages handed back.

- `show_turn_event()` draws what the Turn Runner reports: the prompt echoed when its turn starts,
  the Agent Loop's events, and the end of the turn (an error line, or `interrupted`).
- `pending_lines()` lists, just above the prompt, what was sent during the turn and has not
  reached the model yet, one line each, marked by what it waits for (`MARKS`):

      ⧗ next turn · add a test for it

- `hand_back()` puts the messages an aborted (or failed) turn never delivered back into the input
  line, so nothing typed is lost: edit them, send them again, or clear them with Ctrl-C.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from decode.harness.queue import Message, Priority
from decode.tools.mention_text import typed_part
from decode.tui.sessions import show_fill
from decode.tui.tool_lines import shorten

if TYPE_CHECKING:
    from decode.entities.events import AgentEvent
    from decode.harness.runner import TurnEnded, TurnStarted
    from decode.tui.app import Repl
    from decode.tui.footer import Fragments

MARKS = {
    Priority.STEER: ("↳", "steer"),  # [lesson 10]
    Priority.FOLLOW_UP: ("⏎", "follow-up"),  # [lesson 10]
    Priority.TURN: ("⧗", "next turn"),
}
PENDING_WIDTH = 70


def show_turn_event(repl: Repl, event: AgentEvent | TurnStarted | TurnEnded) -> None:
    """Draw one event of the Turn Runner (the Agent Loop's events included)."""
    from decode.harness.runner import TurnEnded, TurnStarted

    if not isinstance(event, (TurnStarted, TurnEnded)):
        _show_loop_event(repl, event)
        return
    if isinstance(event, TurnStarted):
        repl.renderer.separator()
        if not event.message.shown:  # a command's turn: the command was echoed as it ran
            repl.renderer.user(repl.pastes.collapsed(event.message.display))  # a long paste, collapsed
        for line, level in event.message.notes:  # what its `@path`s attached, or why not  # [lesson 04]
            repl.renderer.notice(line, level)
        repl.status.start_turn()
        return
    if event.outcome == "failed":
        repl.renderer.error(event.error)
    repl.renderer.end_turn(interrupted=event.outcome == "aborted")
    repl.status.end_turn()
    hand_back(repl, event.returned)
    show_fill(repl)  # [lesson 11]
    repl.invalidate()


def _show_loop_event(repl: Repl, event: AgentEvent) -> None:
    match event.kind:
        # [lesson 10]
        case "message_delivered":
            repl.renderer.user(repl.pastes.collapsed(typed_part(event.text)))  # where the model received it, mid-turn
        # [/lesson 10]
        case "usage":
            repl.status.record_usage(
                requests=event.total.requests,
                input_tokens=event.total.input_tokens,
                output_tokens=event.total.output_tokens,
                cost_usd=event.total.cost_usd,
                context_tokens=event.request.total_tokens,
            )
        case _:
            repl.renderer.event(event)
    repl.invalidate()


def pending_lines(messages: list[Message]) -> Fragments:
    """The waiting messages, one line each, for the lines above the prompt ([] when none wait)."""
    lines: Fragments = []
    for message in messages:
        mark, label = MARKS[message.priority]
        lines += [
            ("class:pending", f"{mark} {label} · "),
            ("class:pending.text", shorten(message.display, PENDING_WIDTH)),
        ]
        lines.append(("", "\n"))
    return lines


def hand_back(repl: Repl, messages: tuple[Message, ...]) -> None:
    """Put messages the model never got back into the input line, ahead of anything typed since."""
    if not messages:
        return
    repl.keep_in_input(repl.pastes.collapsed("\n".join(message.display for message in messages)))
    count = f"{len(messages)} messages" if len(messages) > 1 else "1 message"
    repl.renderer.notice(f"not sent, back in the input line: {count}")
