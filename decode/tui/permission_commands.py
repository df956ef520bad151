"""`/permissions` (lesson 06): the Permission Mode and the rules in force, as `decode permissions` prints them.

The rules are the conversation's own Permission Gate's: the settings files read at start, and the
rules an "always" answer added since. Before the warm-up is done there is no gate yet: the
command says so. `decode permissions check TOOL ARGUMENT` tells what one call would get.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from decode.tui.approvals import start_permissions
from decode.tui.commands import CommandRegistry, SlashCommand
from decode.visible import visible

if TYPE_CHECKING:
    from decode.tui.app import Repl


_DESCRIPTION = "Show the permission mode and the rules in force"
_DESCRIPTION += " (/permissions trust: the repository's settings)"  # [lesson 09]
_SUBCOMMANDS: list[str] = []
_SUBCOMMANDS.append("trust")  # [lesson 09]


def add_permission_commands(registry: CommandRegistry) -> CommandRegistry:
    """Add `/permissions` to `registry` (and return it)."""
    registry.add(SlashCommand("permissions", _DESCRIPTION, _permissions, suggest=lambda repl: list(_SUBCOMMANDS)))
    registry.status_lines.append(lambda repl: [f"mode:      {repl.status.permission_mode}"])
    registry.on_ready.append(start_permissions)  # the settings files' problems, the mode it starts in
    return registry


async def _permissions(repl: Repl, argument: str) -> None:
    await repl.warmed_up()
    if repl.conversation is None:
        repl.renderer.error(f"no permission rules yet: the agent has not started ({repl.unavailable or 'loading'})")
        return
    from decode.permissions.report import describe_rules, describe_settings

    gate = repl.conversation.gate
    if argument.strip() == "trust":  # [lesson 09]
        from decode.tui.settings_trust import trust_settings

        trust_settings(repl, gate)
        return
    where = "Shift+Tab switches"
    lines = [*describe_rules(gate, where), *describe_settings(gate)]
    lines.append("what one call gets: decode permissions check TOOL ARGUMENT")
    repl.renderer.info(Text(visible("\n".join(lines))))  # a repository's rule or hook may hold escape sequences
