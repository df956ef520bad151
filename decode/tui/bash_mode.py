"""Bash Mode in the REPL: `!git status` runs the command without the model (`decode.harness.bash_mode`).

The line becomes a turn of its own for the Turn Runner: it waits for a running turn, shows in the
transcript as `❯ !git status` then the `bash` call's line and output, asks through the Decision
Channel when the Permission Gate asks, and the stop key (Esc, Ctrl-C) stops it as it stops a turn.
A bare `!` only prints a hint.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from decode.harness.bash_mode import HINT, PREFIX, bash_command, run_bash_mode
from decode.harness.queue import Message, Priority

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from decode.agent.loop import AgentLoop
    from decode.entities.events import AgentEvent
    from decode.tui.app import Repl


def send_bash(repl: Repl, line: str) -> bool:
    """Send a Bash Mode line as a turn of its own; False when `line` is not one."""
    command = bash_command(line)
    if command is None:
        return False
    if not command:
        repl.renderer.notice(HINT)
        return True

    def run(loop: AgentLoop) -> AsyncIterator[AgentEvent]:
        conversation = repl.conversation
        assert conversation is not None  # the Turn Runner has its loop
        return run_bash_mode(loop, command, conversation.gate, repl.options.approve)

    # A turn of its own, never a steer: the model must not read it as the user's words. Its text is
    # the line as typed: echoed when its turn starts, listed while it waits, handed back if stopped.
    repl.turns.send(Message(f"{PREFIX}{command}", Priority.TURN, run=run))
    repl.invalidate()
    return True
