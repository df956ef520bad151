"""`run_repl()`: the REPL in this terminal, what `decode` with no subcommand runs.

Before the prompt is drawn, each option that can be wrong is checked (the start checks the
parts of decode add to the command registry), so a bad one is a one-line error and exit code 2,
not a REPL that cannot work. Then the REPL runs inside the event loop, with stdout patched so Rich
prints above the prompt, and ends on a hang-up or a signal as well as on /quit: the running turn
is stopped and what it did is kept.
"""

from __future__ import annotations

import asyncio
import sys

import click
from prompt_toolkit.patch_stdout import patch_stdout

from decode.agent.options import LoopOptions
from decode.tui.app import Repl, repl_commands
from decode.tui.commands import CommandRegistry
from decode.tui.hangup import ending_on_hang_up
from decode.tui.terminal import route_logging, terminal_console

EXIT_USAGE = 2


def run_repl(options: LoopOptions) -> int:
    """Run the REPL in this terminal (what `decode` does) on what the command line asks; returns the exit code."""
    commands = repl_commands()
    # Each option that can be wrong, checked by the part that added it (`CommandRegistry.start_checks`).
    for name, check in commands.start_checks.items():
        if isinstance(value := getattr(options, name), str) and (problem := check(options.home, value)):
            click.echo(f"decode: error: {problem}", err=True)
            return EXIT_USAGE
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        click.echo('decode: error: the REPL needs a terminal; without one, use decode run "TASK"', err=True)
        return EXIT_USAGE
    try:
        return asyncio.run(_main(options, commands))
    except KeyboardInterrupt:
        return 130


async def _main(options: LoopOptions, commands: CommandRegistry) -> int:
    # [lesson 05]
    import signal

    from decode.processes.signals import end_all, end_all_on

    # SIGTERM, a hang-up: the agent's programs end at once; the REPL leaves with 128 + the signal.
    stop = end_all_on((signal.SIGTERM,), asyncio.current_task())
    # [/lesson 05]
    console = terminal_console(sys.stdout)
    # Inside the event loop: patch_stdout schedules its writes on the loop that is running.
    with patch_stdout(raw=True), route_logging(sys.stderr):
        repl = Repl(console=console, options=options, commands=commands)
        with ending_on_hang_up(asyncio.current_task(), repl.session.input) as hang_up:  # the terminal gone
            hang_up.before.append(end_all)  # [lesson 05]
            try:
                return await repl.run()
            except asyncio.CancelledError:
                signum = hang_up.signum
                signum = stop.signum or signum  # SIGTERM  # [lesson 05]
                if signum is None:
                    raise
                if (task := asyncio.current_task()) is not None:
                    task.uncancel()  # the cancellation was the signal's: this task lives on to close the turn
                await repl.turns.stop()  # the running turn is aborted, and what it did is kept
                return 128 + signum
            # [lesson 17]
            finally:
                from decode.sandbox.backends import close_sandboxes

                await close_sandboxes()  # what still runs in the sandbox stops; its container goes
            # [/lesson 17]
