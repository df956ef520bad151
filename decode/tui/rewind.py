"""The REPL's checkpoints (lesson 11): `/undo`, `/rewind`, and Esc Esc on an empty line.

- `/undo` puts back the files the last turn's file tools changed and takes that turn out of the
  conversation (and of the Session Log, so `--resume` agrees).
- `/rewind` (or Esc Esc on an empty input line) lists the turns since the last compaction or
  clear, newest first, each with its prompt and the files it changed; after the pick, what to
  restore: code and conversation, the conversation only, or the code only. Rewinding the
  conversation puts the turn's prompt back in the input line. `/rewind N` picks turn N (1 is the
  oldest) without the list. Esc Esc with text on the line clears it (↑ brings it back).
- A file changed since the turn (by you, or by a command) is not overwritten unless you say so.
  What `bash` changed is not tracked: rewinding a turn that ran commands says so.

The pickers are prompt_toolkit's `ChoiceInput`, run on the REPL's own input and output while no
prompt is shown (a slash command runs between two prompts).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent, merge_key_bindings

from decode.tui.commands import CommandRegistry, SlashCommand
from decode.tui.input import DOUBLE_PRESS_S

if TYPE_CHECKING:
    from collections.abc import Sequence

    from decode.agent.loop import AgentLoop
    from decode.context.checkpoints import TurnMark
    from decode.context.rewind import RestorePlan
    from decode.tui.app import Repl

BOTH, CONVERSATION, CODE = "both", "conversation", "code"
PROMPT_SHOWN = 70
FILES_SHOWN = 4


def add_rewind_commands(registry: CommandRegistry) -> CommandRegistry:
    """Add `/undo` and `/rewind` to `registry` (and return it)."""
    registry.add(
        SlashCommand("undo", "Undo the last turn: its file changes and the turn itself", _undo, while_busy=False)
    )
    registry.add(
        SlashCommand(
            "rewind",
            "Go back to before an earlier turn: code and conversation, or either (Esc Esc)",
            _rewind,
            argument="[turn]",
            while_busy=False,
        )
    )
    return registry


def add_rewind_keys(repl: Repl) -> None:
    """Esc twice within `DOUBLE_PRESS_S`, nothing running and no question open: `/rewind` on an empty
    input line; with text on the line, the text is cleared instead (kept in the history, ↑ brings it back).

    Each Esc is a key of its own (a terminal sends Esc Esc as two keys a moment apart, and the
    input takes Esc alone after `ESCAPE_WAIT_S`), so the second press is matched by its time.
    """
    bindings = KeyBindings()
    idle = Condition(lambda: not repl.busy and not repl.questions.text)
    last = [float("-inf")]

    @bindings.add("escape", filter=idle)
    def _open_rewind(event: KeyPressEvent) -> None:
        now, previous = time.monotonic(), last[0]
        last[0] = now
        if now - previous >= DOUBLE_PRESS_S:
            return
        last[0] = float("-inf")
        buffer = event.current_buffer
        if buffer.text.strip():
            buffer.append_to_history()
            buffer.reset()
            return
        buffer.text = "/rewind"
        buffer.validate_and_handle()

    repl.session.key_bindings = merge_key_bindings([*filter(None, [repl.session.key_bindings]), bindings])


def _conversation(repl: Repl) -> AgentLoop | None:
    loop = repl.loop
    if loop is None or loop.session is None:
        repl.renderer.error(repl.unavailable or "the conversation is not ready yet")
        return None
    return loop


async def _undo(repl: Repl, argument: str) -> None:
    await repl.warmed_up()
    if (loop := _conversation(repl)) is None:
        return
    assert loop.session is not None
    if not (marks := loop.session.checkpoints.marks):
        repl.renderer.notice("nothing to undo: no turn since the session began (or the last /compact or /clear)")
        return
    await rewind_to(repl, loop, len(marks) - 1, BOTH)


async def _rewind(repl: Repl, argument: str) -> None:
    await repl.warmed_up()
    if (loop := _conversation(repl)) is None:
        return
    assert loop.session is not None
    marks = loop.session.checkpoints.marks
    if not marks:
        repl.renderer.notice("nothing to rewind: no turn since the session began (or the last /compact or /clear)")
        return
    if argument:
        if not argument.isdigit() or not 1 <= int(argument) <= len(marks):
            repl.renderer.error(f"/rewind takes a turn number from 1 to {len(marks)}, or nothing to pick from a list")
            return
        index: int | None = int(argument) - 1
    else:
        turns = [(i, _turn_label(repl, i, mark)) for i, mark in reversed(list(enumerate(marks)))]
        index = await pick(repl, "Rewind to before which turn? (newest first; Esc cancels)", turns, numbered=False)
    if index is None:
        return
    what = await pick(
        repl,
        f"Turn {index + 1}: {_short(marks[index].prompt)} — restore what?",
        [
            (BOTH, "Restore code and conversation"),
            (CONVERSATION, "Restore conversation (keep the code)"),
            (CODE, "Restore code (keep the conversation)"),
            (None, "Never mind"),
        ],
    )
    if what is not None:
        await rewind_to(repl, loop, index, what)


async def rewind_to(repl: Repl, loop: AgentLoop, index: int, what: str) -> None:
    """Rewind to before turn `index`: its files and those of every later turn (`what`: BOTH, CODE or
    CONVERSATION), and the conversation, as asked."""
    from decode.context.rewind import plan, rewind_conversation
    from decode.tui.sessions import show_fill

    assert loop.session is not None
    marks = loop.session.checkpoints.marks
    prompt = _full_prompt(loop.history, marks[index].start) or marks[index].prompt
    restoring = plan(marks, index, loop.history)
    if what != CONVERSATION and not await _restore_code(repl, loop, restoring):
        return
    if what != CODE:
        try:
            loop.history = rewind_conversation(loop.session, loop.history, restoring.keep)
        except OSError as exc:
            repl.renderer.error(f"the conversation was not rewound: could not save the session ({exc})")
            return
        show_fill(repl)
        repl.renderer.notice(f"conversation rewound to before turn {index + 1}: {_short(prompt)}")
        if prompt and not prompt.startswith("<bash-input>"):
            repl.keep_in_input(prompt)  # to send again, changed or not


async def _restore_code(repl: Repl, loop: AgentLoop, restoring: RestorePlan) -> bool:
    """Put the files back; False when the user cancelled (nothing was changed then)."""
    from decode.context.rewind import changed_since, restore

    assert loop.session is not None
    executor = loop.deps.executor
    skip: list[Path] = []
    if changed := await changed_since(executor, restoring.files):
        names = _names(repl, changed)
        answer = await pick(
            repl,
            f"changed since that turn (by you or a command): {names}",
            [
                ("overwrite", "restore them anyway"),
                ("keep", "keep them as they are, restore the rest"),
                ("cancel", "cancel: change nothing"),
            ],
        )
        if answer in (None, "cancel"):
            repl.renderer.notice("rewind cancelled: nothing was changed")
            return False
        skip = changed if answer == "keep" else []
    done = await restore(executor, loop.session.checkpoints, restoring.files, skip=skip)
    if done.restored or done.removed:
        parts = [f"restored {_names(repl, done.restored)}"] if done.restored else []
        parts += [f"removed {_names(repl, done.removed)}"] if done.removed else []
        repl.renderer.notice("; ".join(parts))
    elif not (restoring.unkept or done.failed or skip):
        repl.renderer.notice("no file to restore: those turns' file tools changed nothing")
    for path, why in [*restoring.unkept, *((p, "changed since: kept as it is") for p in skip)]:
        repl.renderer.notice(f"not restored: {_name(repl, path)} ({why})", "warning")
    for path, why in done.failed:
        repl.renderer.error(f"could not restore {_name(repl, path)}: {why}")
    if restoring.ran_commands:
        repl.renderer.notice("those turns ran commands: what they changed is not tracked, so it stays", "warning")
    return True


async def pick[T](repl: Repl, message: str, options: Sequence[tuple[T, str]], *, numbered: bool = True) -> T | None:
    """A prompt_toolkit list to choose from (↑/↓, or a number when `numbered`, then Enter); None on Esc or Ctrl-C."""
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.shortcuts.choice_input import ChoiceInput

    keys = KeyBindings()

    @keys.add("escape", eager=True)
    def _cancel(event: KeyPressEvent) -> None:
        event.app.exit(result=None)

    chooser: ChoiceInput[T | None] = ChoiceInput(
        message=message, options=list(options), key_bindings=keys, show_numbers=numbered
    )
    with create_app_session(input=repl.session.input, output=repl.session.output):
        try:
            return await chooser.prompt_async()
        except (KeyboardInterrupt, EOFError):
            return None


def _turn_label(repl: Repl, index: int, mark: TurnMark) -> str:
    files = [Path(change.path) for change in mark.changes]
    changed = f" · {_names(repl, files)}" if files else " · no file changes"
    return f"{index + 1}. {_short(mark.prompt)}{changed}"


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= PROMPT_SHOWN else text[: PROMPT_SHOWN - 1] + "…"


def _name(repl: Repl, path: Path) -> str:
    return str(path.relative_to(repl.workspace)) if path.is_relative_to(repl.workspace) else str(path)


def _names(repl: Repl, paths: Sequence[Path]) -> str:
    shown = ", ".join(_name(repl, path) for path in paths[:FILES_SHOWN])
    return shown + (f" and {len(paths) - FILES_SHOWN} more" if len(paths) > FILES_SHOWN else "")


def _full_prompt(history: Sequence[object], start: int) -> str:
    """The prompt the user typed for the turn starting at `history[start]` (as typed, mentions left out)."""
    from pydantic_ai.messages import ModelRequest, UserPromptPart

    from decode.tools.mention_text import prompt_text, typed_part

    message = history[start] if start < len(history) else None
    if isinstance(message, ModelRequest):
        for part in message.parts:
            if isinstance(part, UserPromptPart) and (text := prompt_text(part.content)) is not None:
                return typed_part(text)
    return ""
