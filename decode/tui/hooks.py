"""The REPL side of hooks (lesson 12): `/hooks` lists them; SessionEnd runs on the way out and on `/clear`.

`/hooks` reads the settings files again, so a hook added since the start is listed (it runs from
the next start), each with its file and line and whether it runs now: a repository's own hooks
wait until the project's settings are trusted (`/permissions trust`). Editing is done in the files.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from decode.tui.commands import CommandRegistry, SlashCommand
from decode.visible import visible

if TYPE_CHECKING:
    from decode.tui.app import Repl


def add_hook_commands(registry: CommandRegistry) -> CommandRegistry:
    """Add `/hooks`, and the SessionEnd hooks when the REPL leaves or clears the conversation."""
    registry.add(SlashCommand("hooks", "List the hooks the settings files configure", _hooks))
    registry.on_leave.append(end_on_leave)
    registry.on_clear.append(end_on_clear)
    return registry


def end_on_leave(repl: Repl) -> None:
    """The user leaves: the SessionEnd hooks run (`reason`: prompt_input_exit), within the leaving wait."""
    _end(repl, "prompt_input_exit")


def end_on_clear(repl: Repl) -> None:
    """`/clear`: the SessionEnd hooks run (`reason`: clear); the next turn runs SessionStart (`clear`)."""
    _end(repl, "clear")


def _end(repl: Repl, reason: str) -> None:
    loop = repl.loop
    if loop is None or loop.hooks is None:
        return
    from decode.harness.hook_turns import session_end

    repl.in_background(session_end(loop, reason))
    if reason == "clear":
        loop.hooks.started, loop.hooks.start_source = False, "clear"  # the next turn runs SessionStart again


async def _hooks(repl: Repl, argument: str) -> None:
    from decode.hooks.config import load_hooks

    options = repl.options
    config = load_hooks(repl.workspace, command_line=options.settings_layer)
    hooks = repl.loop.hooks if repl.loop is not None else None
    trusted = hooks.trusted() if hooks is not None else _trusted(repl)
    if not config.hooks:
        repl.renderer.notice('hooks: none configured (settings files: "hooks": {"PreToolUse": [...]})')
    else:
        repl.renderer.info(Text("Hooks, in the order the settings files are read", style="bold underline"))
        for hook in config.hooks:
            state = "waits for trust" if hook.source.shared and not trusted else "runs"
            # The repository wrote the matcher and command: their escape sequences are shown, never obeyed.
            line = Text.assemble((str(hook.event), "bold"), visible(f" {hook.matcher or '*'}: {hook.command}"))
            repl.renderer.info(line)
            repl.renderer.info(Text(visible(f"  {hook.where} · {state}"), style="dim"))
        if any(hook.source.shared for hook in config.hooks) and not trusted:
            repl.renderer.notice("the repository's hooks run once you trust its settings: /permissions trust")
    for problem in config.problems:
        repl.renderer.notice(f"hook {problem}", "warning")


def _trusted(repl: Repl) -> bool:
    """Without a conversation yet: are the project's settings trusted as they are now?"""
    from decode.permissions.settings_files import load_permission_settings

    return load_permission_settings(repl.workspace).trusted
