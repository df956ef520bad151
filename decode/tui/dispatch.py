"""What a line typed in the REPL becomes: an answer, a slash command, or a message for the agent.

A slash command runs at once, even while a turn runs (unless it changes the conversation: then
it waits for the turn to end). A `!command` runs in a turn of its own, without the model (Bash
Mode, lesson 06). Anything else is a message for the Harness: with nothing running it starts a
turn; while a turn runs, the key that sent it says what it is for that turn.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from decode.harness.queue import Message, Priority
from decode.tui.bash_mode import send_bash
from decode.tui.mentions import mentioned

if TYPE_CHECKING:
    from decode.tui.app import Repl
    from decode.tui.commands import Invocation

logger = logging.getLogger(__name__)

# [lesson 10]
ENTER_SENDS = Priority.STEER
"""What Enter sends while a turn runs: a steer (Alt+Enter sends a follow-up)."""
# [before lesson 10]
# ENTER_SENDS = Priority.TURN
# """What Enter sends while a turn runs: a prompt that waits for its own turn."""
# [/lesson 10]


async def submit(repl: Repl, line: str, priority: Priority = ENTER_SENDS) -> None:
    """Handle one line from the input: an answer, a slash command (runs now), or a message for the agent.

    A message starts a turn when nothing runs; while a turn runs, `priority` says what it is
    for that turn (Enter sends `ENTER_SENDS`).
    """
    if repl.questions.answer(line):  # a question is open: this line is its answer  # [lesson 06]
        return
    shown = line.strip()
    if not shown:
        return
    text = repl.pastes.expand(shown)  # a long paste was collapsed in the input line: the whole text
    invocation = repl.commands.parse(text)
    if invocation is not None:
        repl.renderer.command(shown)  # echoed like a prompt
        await run_command(repl, invocation)
        return
    if repl.status.phase == "unavailable" and not repl.busy:  # no model: the prompt would be lost
        repl.keep_in_input(line)
        repl.renderer.error(f"not sent (kept in the input line): {repl.unavailable}")
        return
    if send_bash(repl, text):  # `!git status`: Bash Mode, a command run without the model  # [lesson 06]
        return
    # [lesson 04]
    repl.turns.send(await mentioned(repl, Message(text, priority)))  # with what its `@path`s name attached
    # [before lesson 04]
    # repl.turns.send(Message(text, priority))
    # [/lesson 04]
    repl.invalidate()


async def run_command(repl: Repl, invocation: Invocation) -> None:
    """Run a slash command; a failure is one error line, and the REPL carries on."""
    command = invocation.command
    if command is None:
        for run_more in repl.commands.run_more:  # a skill, say
            if await run_more(repl, invocation.name, invocation.argument):
                return
        closest = repl.commands.closest(invocation.name)
        hint = f"did you mean /{closest}?" if closest else "/help lists the commands"
        repl.renderer.error(f"unknown command /{invocation.name}: {hint}")
        return
    if repl.busy and not command.while_busy:
        # [lesson 10]
        repl.renderer.error(f"/{command.name} waits until the turn is over (Esc stops it)")
        # [before lesson 10]
        # repl.renderer.error(f"/{command.name} waits until the turn is over (Ctrl-C stops it)")
        # [/lesson 10]
        return
    try:
        await command.handler(repl, invocation.argument)
    except Exception as exc:
        logger.debug("/%s failed", command.name, exc_info=True)
        repl.renderer.error(f"/{command.name} failed: {exc}")
