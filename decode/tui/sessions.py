"""The REPL side of sessions and compaction (lesson 08): `/compact`, resuming, the context gauge.

- Every REPL conversation is a session: the warm-up opens one (`open_session`), new or, with
  `decode --resume [ID]`, the saved one with its history and model; each turn is logged as it
  ends, and `/model` carries the session over to the new model (`carry_session`).
- `/compact [focus]` summarises the older history now, optionally telling the summary what to
  keep; the answer says how many messages it replaced (or why it could not).
- `show_fill()` puts the session's context window and the history's size in the footer's gauge.

The context modules are imported inside the functions, so the prompt still appears before
pydantic-ai is loaded.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from decode.tui.commands import CommandRegistry, SlashCommand

if TYPE_CHECKING:
    from pydantic_ai.messages import ModelMessage

    from decode.agent.loop import AgentLoop
    from decode.config.settings import Settings
    from decode.context.session import Session
    from decode.tui.app import Repl
    from decode.tui.warmup import Warm


def add_session_commands(registry: CommandRegistry) -> CommandRegistry:
    """Add `/compact` to `registry` (and return it)."""
    registry.add(
        SlashCommand(
            "compact",
            "Summarise the older conversation to free context (optionally: what to focus on)",
            _compact,
            argument="[focus]",
            while_busy=False,
        )
    )
    return registry


def open_session(
    workspace: Path, model: str | None, settings: Settings, resume: str | None
) -> tuple[Session, list[ModelMessage]]:
    """The REPL's session: a new one, or the one `resume` names ("" the newest), and its history.

    Raises `SessionError` with a message for the user.
    """
    from decode.context.session import Session

    return Session.open(workspace, resume=resume, model=model, settings=settings)


def resumed_notice(warm: Warm) -> str:
    """What the REPL says after `decode --resume`."""
    if warm.session is None:
        return ""
    return f"resumed session {warm.session.session_id}: {len(warm.history)} messages, model {warm.session.model}"


def carry_session(old: AgentLoop | None, new: AgentLoop, warm: Warm | None, model: str) -> None:
    """`/model` built `new`: it continues the session of `old` (or the warm-up's, with its history)."""
    if old is not None:
        new.session = old.session
    elif warm is not None:
        new.session, new.history = warm.session, warm.history
    if new.session is not None:
        new.session.switch_model(model)


def show_fill(repl: Repl) -> None:
    """Point the footer's gauge at the current history and the session's context window."""
    loop = repl.loop
    if loop is None or loop.session is None:
        return
    from decode.context.windows import context_tokens

    repl.status.context_window = loop.session.window.tokens
    repl.status.context_tokens = context_tokens(loop.history)


async def _compact(repl: Repl, argument: str) -> None:
    await repl.warmed_up()
    if repl.loop is None:
        repl.renderer.error("no model to summarise with: pick one with /model provider:name")
        return
    repl.renderer.notice("compacting: asking the model for a summary…")
    notice = await repl.loop.compact(argument.strip() or None)
    repl.renderer.notice(notice.message, notice.level)
    show_fill(repl)
