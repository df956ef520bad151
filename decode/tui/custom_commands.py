"""Custom slash commands in the REPL (lesson 12): `/name [arguments]` runs `.claude/commands/name.md`.

The commands are found again on every `/help`, completion and run (`decode.skills.custom_commands`),
so a file added during a session is there at once. A REPL command or a skill of the same name wins.
Running one: the arguments are filled in, each `!` command runs through the Permission Gate as a
bash call would (an `ask` is the usual approval question), the `@` files are attached, and the
prompt goes to the agent as one turn, shown in the transcript as `/name arguments`. Its front
matter's `allowed-tools` allow (as the mode's answer only) its `!` lines and its turn's calls, a
repository's command once the project's settings are trusted (`decode.skills.command_grants`); its
`model` answers that turn, and the next turn has the session's model again.
"""

from __future__ import annotations

import asyncio
import copy
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from decode.harness.queue import Message, Priority
from decode.tui.commands import CommandRegistry

if TYPE_CHECKING:
    from pydantic_ai.models import Model

    from decode.agent.loop import AgentLoop
    from decode.permissions.gate import PermissionGate
    from decode.permissions.types import Rule, Verdict
    from decode.skills.custom_commands import CustomCommand
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
            scope = await command_scope(repl, command)
            prompt = await expand(
                command, argument, repl.workspace, lambda line: run_shell_line(repl, line, scope.rules)
            )
        except CommandError as exc:
            repl.renderer.error(str(exc))
            return
        repl.turns.send(Message(prompt, Priority.TURN, shown=f"/{name} {argument}".rstrip(), scope=scope))
        repl.invalidate()

    # Alongside the prompt: a `!` line may ask a question, which the prompt answers.
    repl.alongside(send())
    return True


async def run_shell_line(repl: Repl, line: str, allows: tuple[Rule, ...] = ()) -> str:
    """Run one `!` line of a command as the gate allows a bash call, with the command's `allowed-tools`
    (`allows`); what the prompt shows instead."""
    from decode.skills.command_shell import run_gated

    conversation = repl.conversation
    assert conversation is not None  # `run_custom_command` waited for it
    executor, timeout = conversation.loop.deps.executor, conversation.settings.bash_timeout
    gate = copy.copy(conversation.gate)  # the session's gate, with the command's rules for this line only
    gate.turn_allows = allows
    return await run_gated(line, gate, executor, timeout, lambda a, v: _asked(repl, a, v), _say(repl))


@dataclass(frozen=True)
class CommandScope:
    """What a command's turn runs with: its `allowed-tools` as allow rules, its `model` (None: the
    session's). Called as the turn starts (`Message.scope`); what it returns puts things back."""

    gate: PermissionGate
    rules: tuple[Rule, ...] = ()
    model: Model | None = None

    def __call__(self, loop: AgentLoop) -> Callable[[], None]:
        session_model = loop.model
        self.gate.turn_allows = self.rules
        if self.model is not None:
            loop.model = self.model

        def undo() -> None:
            self.gate.turn_allows = ()
            if self.model is not None and loop.model is self.model:  # a `/model` since then stays
                loop.model = session_model

        return undo


async def command_scope(repl: Repl, command: CustomCommand) -> CommandScope:
    """The command's scope; a line says what its front matter does (or why its rules or model are not used)."""
    from decode.models.gateway import resolve_model
    from decode.skills.command_grants import command_rules, model_settings

    conversation = repl.conversation
    assert conversation is not None
    loaded = conversation.gate.settings
    rules, why = command_rules(command, loaded.grants.others if loaded is not None and loaded.trusted else None)
    if why:
        repl.renderer.notice(why, "warning")
    if rules:
        repl.renderer.notice(f"/{command.name}: this turn allows {', '.join(rule.text for rule in rules)}", "info")
    model = None
    if spec := command.model.strip():
        from decode.models.errors import ModelConfigError

        full = f"anthropic:{spec}" if spec.startswith("claude-") else spec  # Claude Code's model ids
        options = conversation.options
        settings = model_settings(command, conversation.settings)  # a repository's: no key its `.env` gives
        try:
            model = await asyncio.to_thread(resolve_model, full, settings, on_retry=options.on_retry)
        except ModelConfigError as exc:  # a Claude Code project's model may need a key this user has not got
            mine = (
                ""
                if settings is conversation.settings
                else "; a repository's command uses only your environment's keys"
            )
            repl.renderer.notice(
                f"/{command.name}: its model {spec} is not used ({exc}{mine}); the session's answers", "warning"
            )
        else:
            repl.renderer.notice(f"/{command.name}: this turn uses {spec}", "info")
    return CommandScope(conversation.gate, tuple(rules), model)


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
