"""The REPL side of sessions and compaction (lesson 08): `/compact`, resuming, the context gauge.

- Every REPL conversation is a session: the warm-up's composition root opens one, new or, with
  `decode --resume [ID]`, the saved one with its history and model; each turn is logged as it
  ends, and `/model` switches the model of the same loop and session.
- `/compact [focus]` summarises the older history now, optionally telling the summary what to
  keep; the answer says how many messages it replaced (or why it could not).
- `show_fill()` puts the session's context window and the history's size in the footer's gauge.

The context modules are imported inside the functions, so the prompt still appears before
pydantic-ai is loaded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from decode.tui.commands import CommandRegistry, SlashCommand

if TYPE_CHECKING:
    from pydantic_ai.messages import ModelMessage

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


RESUME_SHOWN_TURNS = 10
"""How many earlier turns a resumed REPL prints again, newest last."""


def earlier_turns(history: list[ModelMessage]) -> tuple[list[tuple[str, str]], bool]:
    """The (prompt, final answer) pairs of a history, oldest first, and whether it was compacted.

    A compaction summary travels as a user prompt marked in its request's metadata: it is not a
    turn the user typed, so it is left out (the flag says it was there).
    """
    from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, UserPromptPart

    from decode.context.windows import SUMMARY_MARK

    turns: list[tuple[str, str]] = []
    compacted = False
    for message in history:
        if isinstance(message, ModelRequest):
            prompts = [p.content for p in message.parts if isinstance(p, UserPromptPart) and isinstance(p.content, str)]
            if message.metadata and SUMMARY_MARK in message.metadata and prompts:
                compacted, prompts = True, prompts[1:]
            turns.extend((prompt, "") for prompt in prompts)
        elif isinstance(message, ModelResponse) and turns:
            text = "".join(part.content for part in message.parts if isinstance(part, TextPart))
            if text.strip():  # the last text of a turn is its answer
                turns[-1] = (turns[-1][0], text)
    return turns, compacted


def show_earlier_turns(repl: Repl, history: list[ModelMessage]) -> None:
    """Print a resumed conversation's last turns again, so the user sees where they left off."""
    turns, compacted = earlier_turns(history)
    hidden = max(len(turns) - RESUME_SHOWN_TURNS, 0)
    if compacted or hidden:
        what = "the conversation before them was compacted" if compacted else f"{hidden} earlier turns not shown"
        repl.renderer.notice(f"… {what}")
    for prompt, answer in turns[hidden:]:
        repl.renderer.user(prompt)
        repl.renderer.answer(answer)


def resumed_notice(warm: Warm) -> str:
    """What the REPL says after `decode --resume`."""
    if warm.conversation is None:
        return ""
    session, history = warm.conversation.session, warm.conversation.loop.history
    return f"resumed session {session.session_id}: {len(history)} messages, model {session.model}"


def show_session(repl: Repl, warm: Warm) -> None:
    """After the warm-up: the footer's gauge, and a resumed conversation's last turns."""
    show_fill(repl)
    if repl.factory.resume is not None and warm.loop is not None:
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


async def _compact(repl: Repl, argument: str) -> None:
    await repl.warmed_up()
    if repl.loop is None:
        repl.renderer.error("no model to summarise with: pick one with /model provider:name")
        return
    repl.renderer.notice("compacting: asking the model for a summary…")
    notice = await repl.loop.compact(argument.strip() or None)
    repl.renderer.notice(notice.message, notice.level)
    show_fill(repl)
