"""Sessions (lesson 11): what resuming a long session costs.

- Resume of a 10,000-message session log (1,000 turns of a coding session: prompts, tool calls,
  ~900-character tool outputs, answers; written by the real `SessionLog`) against plainly parsing
  the same file's JSON lines (`[json.loads(line) for line in file]`, which, like a resume, keeps
  what it read): target 3x. Resuming also validates every message into pydantic-ai's types.
- Memory is proportional to the history kept, not to the file: the peak while resuming the same
  10,000 messages followed by a compaction that keeps the last 1,000, divided by the peak while
  resuming a log that holds just those 1,000 messages: at most 2 (the compaction is one long line,
  held while it is read; the 9,000 messages it replaced are never built).
"""

import json
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from perf import Comparison, Context, Figure, Subject

if TYPE_CHECKING:
    from pydantic_ai.messages import ModelMessage

MESSAGES = 10_000
KEPT = 1_000
TURN_MESSAGES = 10  # a prompt, four tool calls with their results, the answer


def _turn(number: int) -> "list[ModelMessage]":
    from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, ToolCallPart, ToolReturnPart, UserPromptPart
    from pydantic_ai.usage import RequestUsage

    messages: list[ModelMessage] = [
        ModelRequest(parts=[UserPromptPart(f"fix bug {number} in the parser, then run the tests")])
    ]
    for call in range(4):
        call_id = f"call_{number}_{call}"
        messages.append(
            ModelResponse(
                parts=[
                    TextPart("Let me look at the file."),
                    ToolCallPart("read", {"path": f"src/m{call}.py"}, tool_call_id=call_id),
                ],
                usage=RequestUsage(input_tokens=2_000 + number, output_tokens=40),
            )
        )
        messages.append(
            ModelRequest(parts=[ToolReturnPart("read", f"{call:>4}│ value = compute(x)\n" * 36, tool_call_id=call_id)])
        )
    messages.append(
        ModelResponse(
            parts=[TextPart("Fixed: the parser now skips blank lines. " * 4)],
            usage=RequestUsage(input_tokens=2_100, output_tokens=60),
        )
    )
    return messages


def _write_log(home: Path, turns: int, *, compact_to: int | None = None) -> Path:
    """A session log of `turns` turns (and a compaction keeping the last `compact_to` messages)."""
    from decode.context.session_log import SessionLog
    from decode.entities.usage import Usage

    log = SessionLog.new(home, model="google-gla:gemini-flash-latest")
    history: list[ModelMessage] = []
    for number in range(turns):
        turn = _turn(number)
        history.extend(turn)
        log.append_turn(
            turn, Usage(requests=5, input_tokens=10_000, output_tokens=220), model="google-gla:gemini-flash-latest"
        )
    if compact_to is not None:
        log.append_compaction(history[-compact_to:], replaced=len(history) - compact_to, usage=Usage(requests=1))
    return log.path


def _peak_bytes(path: Path) -> int:
    from decode.context.replay import load_session

    tracemalloc.start()
    try:
        load_session(path)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def benchmarks(ctx: Context) -> Iterator[Comparison | Figure]:
    from decode.context.replay import load_session

    full = _write_log(ctx.tmp / "full", MESSAGES // TURN_MESSAGES)
    assert len(load_session(full).history) == MESSAGES

    def plain_parse() -> list[object]:
        with full.open("rb") as file:
            return [json.loads(line) for line in file]

    yield Comparison(
        f"resume a {MESSAGES:,}-message session",
        Subject("load_session(path)", lambda: load_session(full)),
        Subject("json.loads of every line", plain_parse),
        target=3.0,
        runs=10,
    )

    compacted = _write_log(ctx.tmp / "compacted", MESSAGES // TURN_MESSAGES, compact_to=KEPT)
    kept_only = _write_log(ctx.tmp / "kept", KEPT // TURN_MESSAGES)
    assert len(load_session(compacted).history) == len(load_session(kept_only).history) == KEPT
    ratio = _peak_bytes(compacted) / _peak_bytes(kept_only)
    yield Figure(
        f"resume memory: {MESSAGES:,} messages compacted to {KEPT:,} ÷ a {KEPT:,}-message log",
        ratio,
        "x",
        limit=2.0,
        note="peak traced memory of load_session",
    )
