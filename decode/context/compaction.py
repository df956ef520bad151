"""Compaction, tier 2: a summary replaces the older history (tier 1 is `pruning.py`).

Past `SUMMARISE_AT` (about 80 % full) before the next turn, or on demand with `/compact [focus]`,
one request to the active model turns the older history into a structured summary (goal,
constraints, progress, decisions, next steps, files touched); the recent tail stays verbatim
after it. If the request fails, or returns nothing, the history stays exactly as it was and the
caller says so. Compaction never grows the context: with less than `MIN_SUMMARISED_TOKENS` before
the tail nothing is asked at all, and a summary that would leave the history no smaller than it
was is thrown away (the error carries what its request cost, so it is still counted).

The history is cut only where no tool call waits for its result (`safe_cuts`): a call and its
result are never separated, which providers reject. The instructions are rebuilt for every
request, never part of the history: the summary cannot swallow them, and the first request after
a compaction carries them as every request does.
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import accumulate

from pydantic_ai.direct import model_request
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models import Model

from decode.context.pruning import RECENT_SHARE
from decode.context.windows import SUMMARY_MARK, context_tokens, estimate_tokens
from decode.entities.usage import Usage
from decode.models.cost import response_usage

SUMMARISE_AT = 0.8
"""Fill fraction past which the older history is summarised before the next turn."""

MIN_SUMMARISED_TOKENS = 200
"""Below this much history before the tail, a summary (its six headings alone) would save nothing."""

TRANSCRIPT_PART_CHARS = 2_000
"""Longest text of one part in the transcript sent for summarising (tool outputs are clipped)."""

SUMMARY_INSTRUCTIONS = """\
You compact the transcript of a coding session between a user and decode, a coding agent, so the
session can go on in a fresh context window. Write a summary from which the agent can continue the
work without the transcript. Use exactly these markdown headings, in this order:

## Goal
## Constraints
## Progress
## Decisions
## Next steps
## Files touched

Keep exact file paths, names, commands, error messages and numbers. Say what is done and what is
not. Write "none" under a heading with nothing to say. Leave out standing instructions: the agent
receives those with every request anyway."""


class CompactionError(Exception):
    """No summary could be made; the history is unchanged. The message says why.

    `usage` is what a request that was made anyway cost (a summary too long to use), else None."""

    def __init__(self, message: str, usage: Usage | None = None) -> None:
        super().__init__(message)
        self.usage = usage


@dataclass(frozen=True)
class Compaction:
    """A finished summarising compaction: the new history and what it cost."""

    history: list[ModelMessage]
    """The summary followed by the recent tail, verbatim."""
    summary: str
    replaced: int
    """How many messages the summary replaced."""
    kept: int
    """How many recent messages were kept verbatim."""
    response: ModelResponse
    """The summarising response."""

    @property
    def usage(self) -> Usage:
        """What the summarising request cost: tokens and, where a price is known, dollars."""
        return response_usage(self.response)

    def describe(self) -> str:
        replaced = f"{self.replaced} earlier message" + ("s" if self.replaced != 1 else "")
        kept = f"the last {self.kept} are" if self.kept != 1 else "the last one is"
        return f"compacted {replaced} into a summary; {kept} kept verbatim"


def _answers_tools(message: ModelMessage) -> bool:
    return isinstance(message, ModelRequest) and any(
        isinstance(part, ToolReturnPart) or (isinstance(part, RetryPromptPart) and part.tool_name)
        for part in message.parts
    )


def safe_cuts(messages: Sequence[ModelMessage]) -> list[int]:
    """Indexes `i` where `messages[:i]` / `messages[i:]` may be split: no tool call waits across the cut."""
    cuts: list[int] = []
    waiting: set[str] = set()
    for index, message in enumerate(messages):
        if index and not waiting and not _answers_tools(message):
            cuts.append(index)
        if isinstance(message, ModelResponse):
            waiting |= {part.tool_call_id for part in message.parts if isinstance(part, ToolCallPart)}
        else:
            waiting -= {
                part.tool_call_id for part in message.parts if isinstance(part, ToolReturnPart | RetryPromptPart)
            }
    return cuts


def tail_start(messages: Sequence[ModelMessage], budget_tokens: int) -> int | None:
    """Where the verbatim tail begins: the longest tail within `budget_tokens` that starts at a safe cut.

    When even the shortest tail is over budget, the shortest one; None when there is no safe cut.
    """
    cuts = safe_cuts(messages)
    if not cuts:
        return None
    sizes = [estimate_tokens([message]) for message in messages]
    from_end = list(accumulate(reversed(sizes)))[::-1]  # from_end[i]: tokens of messages[i:]
    for cut in cuts:  # ascending: the first that fits is the longest tail
        if from_end[cut] <= budget_tokens:
            return cut
    return cuts[-1]


def needs_summary(messages: Sequence[ModelMessage], window: int) -> bool:
    """True when the history is past `SUMMARISE_AT` of the window."""
    return context_tokens(messages) >= SUMMARISE_AT * window


def _clip(text: str) -> str:
    if len(text) <= TRANSCRIPT_PART_CHARS:
        return text
    return text[:TRANSCRIPT_PART_CHARS] + f"… [{len(text) - TRANSCRIPT_PART_CHARS:,} more characters]"


def _prompt_text(part: UserPromptPart) -> str:
    if isinstance(part.content, str):
        return part.content
    return " ".join(item if isinstance(item, str) else "[attachment]" for item in part.content)


def render_transcript(messages: Sequence[ModelMessage]) -> str:
    """The messages as a plain-text transcript for the summariser.

    System prompts and instructions are left out on purpose: standing instructions are sent with
    every request, so they must not be summarised (and so possibly changed).
    """
    lines: list[str] = []
    for message in messages:
        for part in message.parts:
            if isinstance(part, UserPromptPart):
                lines.append(f"User: {_prompt_text(part)}")
            elif isinstance(part, TextPart) and part.content.strip():
                lines.append(f"Assistant: {part.content}")
            elif isinstance(part, ToolCallPart):
                lines.append(f"Assistant called {part.tool_name}({_clip(part.args_as_json_str())})")
            elif isinstance(part, ToolReturnPart):
                lines.append(f"Result of {part.tool_name}: {_clip(part.model_response_str())}")
            elif isinstance(part, RetryPromptPart):
                lines.append(f"Error from {part.tool_name or 'the output check'}: {_clip(part.model_response())}")
    return "\n\n".join(lines)


def files_touched(messages: Sequence[ModelMessage]) -> list[str]:
    """The `path` arguments of the tool calls in `messages`, in order of first appearance."""
    paths: dict[str, None] = {}
    for message in messages:
        for part in message.parts:
            if isinstance(part, ToolCallPart):
                try:
                    path = part.args_as_dict().get("path")
                except Exception:  # malformed arguments from the model: nothing to list
                    continue
                if isinstance(path, str):
                    paths[path] = None
    return list(paths)


def summary_text(summary: str, replaced: Sequence[ModelMessage]) -> str:
    """What the model reads in place of the replaced messages."""
    text = f"[The earlier conversation ({len(replaced)} messages) was compacted to stay within the context window.]\n\n"
    text += summary
    if paths := files_touched(replaced):
        text += "\n\nPaths named in the compacted tool calls: " + ", ".join(f"`{path}`" for path in paths)
    return text + "\n\n[The most recent messages follow verbatim.]"


def summarised_history(summary: str, head: Sequence[ModelMessage], tail: Sequence[ModelMessage]) -> list[ModelMessage]:
    """The summary, then the tail verbatim.

    When the tail begins with a request, the summary goes in front of its parts (two requests in a
    row would be merged by pydantic-ai anyway, which would shift the count of carried messages).
    """
    part = UserPromptPart(summary_text(summary, head))
    first = tail[0]
    if isinstance(first, ModelRequest):
        mark = {SUMMARY_MARK: {"replaced": len(head), "carried": len(tail) - 1}}
        merged = replace(first, parts=[part, *first.parts], metadata={**(first.metadata or {}), **mark})
        return [merged, *tail[1:]]
    mark = {SUMMARY_MARK: {"replaced": len(head), "carried": len(tail)}}
    return [ModelRequest(parts=[part], metadata=mark), *tail]


async def summarise(
    messages: Sequence[ModelMessage],
    model: Model | str,
    *,
    window: int,
    focus: str | None = None,
) -> Compaction:
    """Tier 2: one request to `model` summarises all but the recent tail. Raises `CompactionError`."""
    cut = tail_start(messages, int(RECENT_SHARE * window))
    if cut is None:
        raise CompactionError("nothing to compact yet: no earlier turn can be separated from the last one")
    head, tail = list(messages[:cut]), list(messages[cut:])
    if estimate_tokens(head) < MIN_SUMMARISED_TOKENS:
        raise CompactionError(
            f"nothing worth summarising yet: the {len(head)} older messages are shorter than a summary would be"
        )
    prompt = f"Summarise this transcript:\n\n<transcript>\n{render_transcript(head)}\n</transcript>"
    if focus:
        prompt += f"\n\nThe user asks the summary to focus on: {focus}"
    try:
        response = await model_request(
            model, [ModelRequest.user_text_prompt(prompt, instructions=SUMMARY_INSTRUCTIONS)]
        )
    except Exception as exc:  # whatever went wrong, the history must stay as it was
        detail = " ".join(str(exc).split())[:300] or type(exc).__name__
        raise CompactionError(f"the summarising request failed: {detail}") from exc
    summary = (response.text or "").strip()
    if not summary:
        raise CompactionError("the model returned an empty summary", response_usage(response))
    history = summarised_history(summary, head, tail)
    if estimate_tokens(history) >= estimate_tokens(messages):
        raise CompactionError("the summary was no shorter than what it would replace", response_usage(response))
    return Compaction(
        history=history,
        summary=summary,
        replaced=len(head),
        kept=len(tail),
        response=response,
    )
