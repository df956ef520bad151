"""`/add-dir DIR` in the REPL (lesson 17): a folder beside the Workspace, added while the session runs.

What `decode --add-dir DIR` does at the start, from then on: the file tools may use the folder
under the Workspace's rules (reads run, a write asks in `default` mode, secrets and protected paths
are refused), bash commands naming files there are judged as naming the Workspace's, and the model
is told the folder in its instructions from its next request. `/add-dir` alone lists the folders.
In a sandbox it is refused: the sandbox's commands could not see a folder added once it runs. The
session keeps the folder with its next turn (lesson 20): `--resume` and `/resume` bring it back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from decode.tui.commands import CommandRegistry, SlashCommand
from decode.visible import visible

if TYPE_CHECKING:
    from decode.tui.app import Repl


def add_add_dir_command(registry: CommandRegistry) -> CommandRegistry:
    """Add `/add-dir` to `registry` (and return it)."""
    registry.add(
        SlashCommand(
            "add-dir",
            "Let the file tools also use a folder beside the Workspace, under its rules",
            _add_dir,
            "[DIR]",
            while_busy=False,
        )
    )
    return registry


async def _add_dir(repl: Repl, argument: str) -> None:
    from decode.agent.steps.added_dirs import AddDirError, add_dir_now, added_dir

    await repl.warmed_up()
    conversation = repl.conversation
    if conversation is None:
        repl.renderer.error("the conversation could not be built, so no folder can be added")
        return
    folders = conversation.loop.deps.executor.more_roots
    if not argument.strip():
        listed = ", ".join(visible(str(folder)) for folder in folders) or "none (/add-dir DIR adds one)"
        repl.renderer.notice(f"folders beside the Workspace: {listed}")
        return
    try:
        folder = added_dir(argument.strip(), repl.options.home, "/add-dir")
        added = add_dir_now(conversation, folder)
    except AddDirError as exc:
        repl.renderer.error(visible(str(exc)))
        return
    if not added:
        repl.renderer.notice(f"{visible(str(folder))} is already one of the folders the tools use")
        return
    repl.renderer.notice(f"added {visible(str(folder))}: the tools may use it under the Workspace's rules")
