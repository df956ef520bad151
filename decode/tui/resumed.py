"""A resumed conversation's earlier turns, shown again as they were shown the first time.

`decode --resume` and `/resume` print the last turns of the conversation they continue, so the
user sees where they left off: each prompt, the model's words, and each tool call's line with
what its view shows under it (a command's exit code and last lines, an edit's diff), rebuilt from
the history the model reads. The call's time is not in the history, so a replayed line has none.

A turn the user interrupted ends, in the history, with a note the model reads
(`[The user interrupted this turn.]`): it is shown as the live REPL showed it, `interrupted`,
never as a prompt the user typed. A Bash Mode command shows as typed (`!git status`), and a
prompt as typed, without what its `@path`s attached.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from decode.tools.mention_text import prompt_text, typed_part

if TYPE_CHECKING:
    from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, RetryPromptPart, ToolReturnPart

    from decode.entities.tool_calls import ToolCall
    from decode.tui.render import Renderer
    from decode.tui.tool_views import ToolRun

STOPPED_NOTE = "[decode was stopped ("
"""How the note of a turn a signal stopped begins (`decode run`, `HeadlessRun.stop_note`)."""


@dataclass
class EarlierTurn:
    """One turn as it was shown: the prompt, then the model's words and its calls in their order."""

    prompt: str
    shown: list[str | ToolRun] = field(default_factory=list)
    interrupted: bool = False

    @property
    def answer(self) -> str:
        """The turn's last words (its answer), '' when it had none."""
        return next((item for item in reversed(self.shown) if isinstance(item, str)), "")


def is_interrupt_note(text: str) -> bool:
    """Is `text` the note an interrupted turn was kept with (not something the user typed)?"""
    from decode.harness.abort import INTERRUPTED_NOTE

    return text == INTERRUPTED_NOTE or (text.startswith(STOPPED_NOTE) and text.endswith("before this turn finished.]"))


def turns_shown(history: list[ModelMessage]) -> tuple[list[EarlierTurn], bool]:
    """The turns of a history, oldest first, and whether it was compacted (the summary is no turn)."""
    from pydantic_ai.messages import ModelRequest, ModelResponse

    turns: list[EarlierTurn] = []
    calls: dict[str, ToolCall] = {}  # the calls whose results are still to come, by id
    compacted = False
    for message in history:
        if isinstance(message, ModelRequest):
            compacted = _read_request(message, turns, calls) or compacted
        elif isinstance(message, ModelResponse) and turns:
            _read_response(message, turns[-1], calls)
    return turns, compacted


def _read_request(message: ModelRequest, turns: list[EarlierTurn], calls: dict[str, ToolCall]) -> bool:
    from pydantic_ai.messages import RetryPromptPart, ToolReturnPart, UserPromptPart

    from decode.context.windows import SUMMARY_MARK
    from decode.harness.bash_mode import shown_as

    summary = bool(message.metadata and SUMMARY_MARK in message.metadata)
    for part in message.parts:
        if isinstance(part, ToolReturnPart | RetryPromptPart) and turns and part.tool_call_id in calls:
            turns[-1].shown.append(_run(calls.pop(part.tool_call_id), part))
        elif isinstance(part, UserPromptPart) and (text := prompt_text(part.content)) is not None:
            if summary:  # the compaction summary travels as the request's first prompt
                summary = False
                continue
            if is_interrupt_note(text):
                if turns:
                    turns[-1].interrupted = True
                continue
            turns.append(EarlierTurn(typed_part(shown_as(text) or text)))  # as typed
    return bool(message.metadata and SUMMARY_MARK in message.metadata)


def _read_response(message: ModelResponse, turn: EarlierTurn, calls: dict[str, ToolCall]) -> None:
    from pydantic_ai.messages import TextPart, ToolCallPart

    from decode.entities.tool_calls import ToolCall

    text = "".join(part.content for part in message.parts if isinstance(part, TextPart))
    if text.strip():
        turn.shown.append(text)
    for part in message.parts:
        if isinstance(part, ToolCallPart):
            try:
                args = part.args_as_dict()
            except Exception:  # malformed JSON the model sent: shown raw, as when it ran
                args = {"raw": str(part.args)}
            calls[part.tool_call_id] = ToolCall(id=part.tool_call_id, name=part.tool_name, args=args)


def _run(call: ToolCall, part: ToolReturnPart | RetryPromptPart) -> ToolRun:
    """The call and its result as the live REPL had them (`outcome`: failed, denied or interrupted: ✗)."""
    from pydantic_ai.messages import RetryPromptPart

    from decode.entities.tool_calls import ToolResult
    from decode.tui.tool_views import ToolRun

    if isinstance(part, RetryPromptPart):
        result = ToolResult(call_id=call.id, name=call.name, content=part.model_response(), is_error=True)
    else:
        failed = part.outcome != "success"
        result = ToolResult(call_id=call.id, name=call.name, content=part.model_response_str(), is_error=failed)
    return ToolRun(call, result)


def show_turns(renderer: Renderer, turns: list[EarlierTurn]) -> None:
    """Print `turns` as the REPL showed them: the prompt, the words and the calls' lines, `interrupted`."""
    for turn in turns:
        renderer.user(turn.prompt)
        for item in turn.shown:
            if isinstance(item, str):
                renderer.answer(item)
            else:
                renderer.shown_call(item, timed=False)
        if turn.interrupted:
            renderer.notice("interrupted", "warning")
