"""The sandbox in the REPL (lesson 17; `/ship` and `--repo`, lesson 19): `/ship`, a last hand-back when the
REPL exits, and the start checks of `--sandbox` and `--repo`.

With `decode --repo PATH|URL` the agent works in a clone; `/ship` commits what it did onto
`decode/<session-id>` and pushes that branch to the source (`decode.sandbox.handback`). Leaving
the REPL does the same, so no work stays behind in `.decode/workspaces/` unless the push failed
(then the report says where the branch is). `/ship` waits for a running turn to end: a branch
taken halfway through an edit would ship half an edit.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text

from decode.tui.commands import CommandRegistry, SlashCommand
from decode.visible import visible

if TYPE_CHECKING:
    from decode.sandbox.handback import HandBack
    from decode.tui.app import Repl


def add_ship_commands(registry: CommandRegistry) -> CommandRegistry:
    """Add `/ship` to `registry` (and return it)."""
    registry.add(  # [lesson 19]
        SlashCommand(
            "ship",
            "Commit the Workspace's work to branch decode/<session> and push it to the --repo source",
            _ship,
            while_busy=False,
        )
    )
    registry.start_checks["sandbox"] = check_sandbox  # refused now, not after the prompt is drawn
    registry.start_checks["repo"] = check_repo  # `--repo PATH`: no such directory  # [lesson 19]
    registry.status_lines.append(_status_lines)
    registry.on_ready.append(show_sandbox)
    return registry


def show_sandbox(repl: Repl) -> None:
    """Once the conversation is built: the footer names the sandbox its commands run in."""
    from decode.sandbox.executor import SandboxExecutor

    if repl.conversation is not None:
        executor = repl.conversation.loop.deps.executor
        repl.status.sandbox = executor.mode if isinstance(executor, SandboxExecutor) else "none"


def _status_lines(repl: Repl) -> list[str]:
    """`/status`: where commands run, and the Workspace with `--repo`."""
    sandbox = repl.status.sandbox
    where = "commands run on this machine, unsandboxed" if sandbox == "none" else "commands run in it"
    lines = [f"sandbox:   {sandbox} ({where})"]
    workspace = repl.conversation.workspace if repl.conversation is not None else None  # [lesson 19]
    if workspace is not None:  # [lesson 19]
        lines.append(f"workspace: {workspace.path} (a clone of {workspace.source}; /ship pushes {workspace.branch})")
    return lines


def check_sandbox(home: Path, mode: str) -> str | None:
    """Why `decode --sandbox MODE` cannot start here (checked before the prompt is drawn), or None."""
    if mode == "none":
        return None
    from decode.sandbox.backends import check_sandbox

    return check_sandbox(mode, home)


def check_repo(home: Path, repo: str) -> str | None:  # [lesson 19]
    """Why `decode --repo REPO` cannot start (an empty value, no such directory), or None."""
    from decode.sandbox.workspace import WorkspaceError, resolve_source

    try:
        resolve_source(repo, home)
    except WorkspaceError as exc:
        return str(exc)
    return None


async def _ship(repl: Repl, argument: str) -> None:  # [lesson 19]
    await repl.warmed_up()
    workspace = repl.conversation.workspace if repl.conversation is not None else None
    if workspace is None:
        repl.renderer.notice(
            "nothing to ship: decode works in this directory itself (start it with --repo to get a branch)"
        )
        return
    await ship(repl)


async def ship(repl: Repl) -> HandBack | None:  # [lesson 19]
    """Hand the Workspace back, if there is one, and show the report; None when there is none."""
    from decode.sandbox.handback import Outcome, hand_back

    conversation = repl.conversation
    if conversation is None or (workspace := conversation.workspace) is None:
        return None
    repl.renderer.notice(f"handing back {workspace.branch} to {workspace.source}…")
    result = await hand_back(workspace, conversation.loop.deps.executor)
    lines = [visible(line) for line in result.report()]  # commit subjects are the model's text
    if result.outcome in (Outcome.KEPT, Outcome.FAILED):
        repl.renderer.error(lines[0])
        if rest := lines[1:]:
            repl.renderer.info(Text("\n".join(rest)))
    else:
        repl.renderer.info(Text("\n".join(lines)))
    return result
