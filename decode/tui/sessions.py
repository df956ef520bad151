"""The REPL side of sessions and compaction (lesson 11): `/compact`, resuming, the context gauge.

- Every REPL conversation is a session: the warm-up's composition root opens one, new or, with
  `decode --resume [ID]`, the saved one with its history and model; each turn is logged as it
  ends, and `/model` switches the model of the same loop and session.
- `/compact [focus]` summarises the older history now, optionally telling the summary what to
  keep; the answer says how many messages it replaced (or why it could not), and `/cost` counts
  the request.
- `/resume` lists this directory's sessions; `/resume ID` continues one in place of the current
  conversation (which is saved: `/resume` lists it too).
- Leaving prints the session's id and the `decode --resume ID` line (`show_resume_line()`);
  `decode --resume` where there is nothing to resume says so and exits 2 (`check_resume()`).
- `show_fill()` puts the session's context window and the history's size in the footer's gauge.

The context modules are imported inside the functions, so the prompt still appears before
pydantic-ai is loaded.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Group
from rich.text import Text

from decode.tui.commands import CommandRegistry, SlashCommand
from decode.tui.resumed import show_turns, turns_shown
from decode.tui.session_list import session_rows

if TYPE_CHECKING:
    from pydantic_ai.messages import ModelMessage

    from decode.tui.app import Repl
    from decode.tui.warmup import Warm


def add_session_commands(registry: CommandRegistry) -> CommandRegistry:
    """Add `/compact` and `/resume` to `registry` (and return it)."""
    registry.add(
        SlashCommand(
            "compact",
            "Summarise the older conversation to free context (optionally: what to focus on)",
            _compact,
            argument="[focus]",
            while_busy=False,
        )
    )
    registry.add(
        SlashCommand(
            "resume",
            "List this directory's sessions, or continue one (the current one stays saved)",
            _resume,
            argument="[id]",
            while_busy=False,
            suggest=_session_ids,
        )
    )
    registry.status_lines.append(_status_line)
    registry.start_checks["resume"] = check_resume  # `--resume [ID]`: no such session
    registry.start_checks["session_id"] = check_session_id  # `--session-id UUID`: taken already  # [lesson 20]
    registry.on_ready.insert(0, show_session)  # the resumed turns first, then what is said about them
    registry.on_leave.append(show_resume_line)  # the session's id, and how to continue it
    return registry


def _status_line(repl: Repl) -> list[str]:
    """`/status`: the session's id, and whether it is saved yet."""
    if (session := repl.loop.session if repl.loop is not None else None) is None:
        return []
    saved = "saved" if session.log.path.exists() else "not saved until the first turn ends"
    return [f"session:   {session.session_id} ({saved})"]


def check_resume(home: Path, resume: str) -> str:
    """Why `decode --resume [ID]` cannot start here ("" when it can): no sessions, no such id."""
    from decode.context.catalog import find_session
    from decode.context.session_log import SessionError

    try:
        find_session(home, resume or None)
    except SessionError as exc:
        return f"{exc}: nothing to resume (`decode` starts a new session)"
    return ""


def check_session_id(home: Path, session_id: str) -> str:  # [lesson 20]
    """Why `decode --session-id UUID` cannot start here ("" when it can): a session has that id already."""
    from decode.context.session_ids import SessionIdError, check_unused, given_session_id

    try:
        check_unused(home, given_session_id(session_id))
    except SessionIdError as exc:
        return str(exc)
    return ""


def show_resume_line(repl: Repl) -> None:
    """On leaving: the session's id and how to continue it (nothing when no turn was saved)."""
    loop = repl.loop
    if loop is None or loop.session is None or not loop.session.log.path.exists():
        return
    session_id = loop.session.session_id
    repl.renderer.notice(f"session {session_id} saved · continue it with: decode --resume {session_id}")


RESUME_SHOWN_TURNS = 10
"""How many earlier turns a resumed REPL prints again, newest last."""


def earlier_turns(history: list[ModelMessage]) -> tuple[list[tuple[str, str]], bool]:
    """The (prompt as typed, final answer) pairs of a history, oldest first, and whether it was compacted.

    A compaction summary travels as a user prompt marked in its request's metadata, and an
    interrupted turn ends with a note for the model: neither is a turn the user typed (`resumed.py`).
    """
    turns, compacted = turns_shown(history)
    return [(turn.prompt, turn.answer) for turn in turns], compacted


def show_earlier_turns(repl: Repl, history: list[ModelMessage]) -> None:
    """Print a resumed conversation's last turns again, tool lines too, so the user sees where they left off."""
    turns, compacted = turns_shown(history)
    hidden = max(len(turns) - RESUME_SHOWN_TURNS, 0)
    if compacted or hidden:
        what = "the conversation before them was compacted" if compacted else f"{hidden} earlier turns not shown"
        repl.renderer.notice(f"… {what}")
    show_turns(repl.renderer, turns[hidden:])


def resumed_notice(warm: Warm) -> str:
    """What the REPL says after `decode --resume`."""
    if warm.conversation is None:
        return ""
    session, history = warm.conversation.session, warm.conversation.loop.history
    return f"resumed session {session.session_id}: {len(history)} messages, model {session.model}"


def show_session(repl: Repl) -> None:
    """After the warm-up: the footer's gauge, and a resumed conversation's last turns."""
    show_fill(repl)
    if repl.options.resume is not None and (warm := repl.warm) is not None and warm.loop is not None:
        show_earlier_turns(repl, warm.loop.history)
        repl.renderer.notice(resumed_notice(warm))


def show_fill(repl: Repl) -> None:
    """Point the footer's gauge at the current history and the session's context window."""
    loop = repl.loop
    if loop is None or loop.session is None:
        return
    from decode.context.windows import context_tokens

    repl.status.context_window = loop.session.window.tokens
    repl.status.context_tokens = context_tokens(loop.history)


def show_usage(repl: Repl) -> None:
    """Put the loop's running totals in the footer and `/cost` (after a request outside a turn)."""
    loop = repl.loop
    if loop is None:
        return
    status = repl.status
    status.requests, status.input_tokens, status.output_tokens = (
        loop.usage.requests,
        loop.usage.input_tokens,
        loop.usage.output_tokens,
    )
    status.cost_usd = loop.usage.cost_usd


async def _compact(repl: Repl, argument: str) -> None:
    await repl.warmed_up()
    loop = repl.loop
    if loop is None:
        repl.renderer.error("no model to summarise with: pick one with /model provider:name")
        return
    # [lesson 12]
    if loop.hooks is not None and (why := await loop.hooks.pre_compact("manual", argument.strip())) is not None:
        repl.renderer.notice(f"a PreCompact hook stopped the compaction: {why}", "warning")
        return
    # [/lesson 12]
    repl.renderer.notice("compacting: asking the model for a summary…")
    notice = await loop.compact(argument.strip() or None)
    repl.renderer.notice(notice.message, notice.level)
    show_usage(repl)  # the summarising request counts in /cost
    show_fill(repl)


def _session_ids(repl: Repl) -> list[str]:
    from decode.context.catalog import session_files, session_id_of

    return [session_id_of(path) for path in session_files(repl.workspace)]


async def _resume(repl: Repl, argument: str) -> None:
    from decode.context.catalog import list_sessions

    if not argument:
        found = list_sessions(repl.workspace)
        if not found:
            repl.renderer.notice("no saved sessions in this directory yet")
            return
        current = repl.loop.session.session_id if repl.loop is not None and repl.loop.session else ""
        rows = session_rows(found, repl.renderer.console.width, current=current)  # id and date first, never cut
        repl.renderer.info(Text("Sessions, most recent first (/resume ID continues one)", style="bold underline"))
        repl.renderer.info(Group(*rows))
        return
    await switch_session(repl, argument.split()[0])


async def switch_session(repl: Repl, ref: str) -> None:
    """Continue saved session `ref` (an id or a unique prefix) in place of the current conversation."""
    from decode.tui.approvals import start_permissions
    from decode.tui.warmup import start_errors

    await repl.warmed_up()
    if repl.settings is None:
        repl.renderer.error(repl.unavailable)
        return
    from decode.agent.compose import build_loop

    options = replace(repl.options, resume=ref, model=None)  # the session's own model, as `decode --resume`
    options = replace(options, session_id=None, fork_session=False)  # `--session-id` named the first  # [lesson 20]
    try:
        conversation = await asyncio.to_thread(build_loop, options, repl.settings)
    except start_errors() as exc:
        repl.renderer.error(str(exc))
        return
    from decode.tui.ship import ship, show_sandbox

    await ship(repl)  # the conversation being left hands its Workspace back first  # [lesson 19]
    left = repl.conversation.session if repl.conversation is not None else None
    repl.options, repl.conversation = options, conversation
    if left is not None:
        left.close()  # its Session Lock: another decode may continue the session left
    show_sandbox(repl)  # the footer names where the resumed session's commands run  # [lesson 17]
    repl.status.model, repl.status.phase, repl.unavailable = conversation.session.model, "ready", ""
    start_permissions(repl)
    show_usage(repl)
    show_fill(repl)
    show_earlier_turns(repl, conversation.loop.history)
    session, history = conversation.session, conversation.loop.history
    repl.renderer.notice(f"resumed session {session.session_id}: {len(history)} messages, model {session.model}")
