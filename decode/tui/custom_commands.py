"""Custom slash commands in the REPL (lesson 12): `/name [arguments]` runs `.claude/commands/name.md`.

The commands are found again on every `/help`, completion and run (`decode.skills.custom_commands`),
so a file added during a session is there at once. A REPL command or a skill of the same name wins.
Running one: the arguments are filled in, each `!` command runs through the Permission Gate as a
bash call would (an `ask` is the usual approval question), the `@` files are attached, and the
prompt goes to the agent as one turn, shown in the transcript as `/name arguments`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from decode.tui.commands import CommandRegistry

if TYPE_CHECKING:
    from decode.permissions.types import Verdict
    from decode.tui.app import Repl


def add_custom_commands(registry: CommandRegistry) -> CommandRegistry:
    """List the custom commands in `/help` and the completer, and run them on `/name`."""
    registry.more_commands.append(custom_command_list)
    registry.run_more.append(run_custom_command)
    return registry


def custom_command_list(repl: Repl) -> list[tuple[str, str]]:
    """`(name, summary)` of each custom command not hidden by a REPL command."""
    from decode.skills.custom_commands import discover_commands

    commands = discover_commands(repl.workspace).commands
    listed = []
    for name in sorted(commands):
        command = commands[name]
        if repl.commands.get(name) is None:
            hint = f" {command.argument_hint}" if command.argument_hint else ""
            listed.append((name, f"{command.description} (command{hint})"))
    return listed


async def run_custom_command(repl: Repl, name: str, argument: str) -> bool:
    """Run the custom command `name` as a turn, if there is one; False when none has that name."""
    from decode.skills.custom_commands import CommandError, discover_commands, expand

    command = discover_commands(repl.workspace).commands.get(name)
    if command is None:
        return False
    await repl.warmed_up()
    if repl.conversation is None:
        repl.renderer.error(f"/{name} needs the agent: {repl.unavailable}")
        return True

    async def send() -> None:
        try:
            prompt = await expand(command, argument, repl.workspace, lambda line: run_shell_line(repl, line))
        except CommandError as exc:
            repl.renderer.error(str(exc))
            return
        repl.queue_prompt(prompt, shown=f"/{name} {argument}".rstrip())

    # Alongside the prompt: a `!` line may ask a question, which the prompt answers.
    repl.alongside(send())
    return True


async def run_shell_line(repl: Repl, line: str) -> str:
    """Run one `!` line of a command as the gate allows a bash call; what the prompt shows instead."""
    from decode.skills.command_shell import run_gated

    conversation = repl.conversation
    assert conversation is not None  # `run_custom_command` waited for it
    executor, timeout = conversation.loop.deps.executor, conversation.settings.bash_timeout
    return await run_gated(line, conversation.gate, executor, timeout, lambda a, v: _asked(repl, a, v), _say(repl))


def _say(repl: Repl) -> Callable[[str], None]:
    return lambda text: repl.renderer.notice(text, "warning" if ": not run (" in text else "info")


async def _asked(repl: Repl, args: dict[str, str], verdict: Verdict) -> str | None:
    """Ask the user about a `!` line the gate asks about, as for a bash call; why not, or None to run it."""
    from decode.permissions.hook import Answer, Asked
    from decode.tools.bash import BASH

    assert repl.conversation is not None
    asked = Asked(repl.conversation.gate, repl.approvals.ask, repl.workspace)
    approval = await asked.approval("bash", dict(args), BASH.traits, verdict)
    return "the user said no" if approval.answer is Answer.NO else None
