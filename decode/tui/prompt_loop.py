"""The REPL's prompt loop: start the warm-up, read prompts until the user leaves, then leave well.

While the loop reads, three things run beside it: the warm-up (`warmup.py`), the Turn Runner's
worker (one turn at a time), and a tick that redraws while something moves. Leaving, by /quit
or Ctrl-D, stops a running turn first (what it did is kept), then does what the session's parts
ask on the way out, and gives work left in the background `LEAVE_WAIT_S` to finish.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from decode.tui.footer import SPINNER_FPS
from decode.tui.ship import ship
from decode.tui.terminal import notices_from_log
from decode.tui.warmup import finish_warm_up, start_warm_up

if TYPE_CHECKING:
    from decode.tui.app import Repl

EXIT_OK = 0
LEAVE_WAIT_S = 15.0
"""The longest the REPL waits, when leaving, for work left in the background (a session note)."""


async def run(repl: Repl) -> int:
    """Read prompts until /quit or Ctrl-D; returns the exit code."""
    repl.event_loop = asyncio.get_running_loop()
    stop_notices = notices_from_log(repl.logged)  # a warning: a notice, not a raw log line
    warm_up = start_warm_up(repl.options, repl.settings)
    repl.warming = asyncio.ensure_future(finish_warm_up(repl, asyncio.wrap_future(warm_up)))
    background = [asyncio.create_task(repl.turns.work()), asyncio.create_task(tick(repl))]
    try:
        while not repl.leaving:
            try:
                line = await repl.session.prompt_async(default=take_kept(repl), set_exception_handler=False)
            except EOFError:
                break
            await repl.submit(line)
        await repl.turns.stop()  # a running turn is aborted first
        await leave(repl)
    finally:
        stop_notices()
        await repl.turns.stop()  # a hang-up or a signal too: the turn is aborted and kept before anything else
        for task in [*background, repl.warming]:
            if task is not None:
                task.cancel()
        await asyncio.gather(*background, return_exceptions=True)
        if repl.conversation is not None:  # its language servers stop with the REPL  # [lesson 16]
            from decode.agent.compose import close_conversation

            await close_conversation(repl.conversation)
    return EXIT_OK


async def leave(repl: Repl) -> None:
    """What leaving does, once no turn runs: each part's last word, then the background's last seconds."""
    await ship(repl)  # `--repo`: the work goes back as a branch before decode leaves  # [lesson 19]
    for part in repl.commands.on_leave:
        part(repl)
    if repl.background:  # never longer than LEAVE_WAIT_S; Ctrl-C skips it
        await asyncio.wait(repl.background, timeout=LEAVE_WAIT_S)


def take_kept(repl: Repl) -> str:
    """What was kept for the input line while no prompt ran (`Repl.keep_in_input`), taken once."""
    kept, repl.kept = repl.kept, ""
    return kept


async def tick(repl: Repl) -> None:
    """Redraw while something moves (the spinner, the live area)."""
    while True:
        await asyncio.sleep(1 / SPINNER_FPS)
        if repl.status.phase in ("starting", "busy"):
            repl.invalidate()
