"""Lesson 11's exercises: each check runs the learner's function on real files and a real history.

`check_replay` writes session logs to a scratch folder (torn the way a crash tears them);
`check_prune` runs decode's Agent Loop with the `read` tool on the scripted model, offline.
"""

import asyncio
import concurrent.futures
import copy
import json
import os
import tempfile
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

from course import Verdict, check
from pydantic import ValidationError
from pydantic_ai.messages import (
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolReturnPart,
    UserPromptPart,
)

from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.context.pruning import placeholder
from decode.entities.deps import AgentDeps
from decode.models.script import ScriptedModel
from decode.processes.local import LocalExecutor
from decode.tools.catalog import FILE_TOOLS

# --- exercise 1: replay a log a crash has torn ------------------------------------------------------


def _turn(n: int) -> list[ModelMessage]:
    """The messages of one turn, as pydantic-ai objects (with fixed timestamps, so they compare)."""
    when = datetime(2025, 1, n, tzinfo=UTC)
    return [
        ModelRequest(parts=[UserPromptPart(f"prompt {n}", timestamp=when)]),
        ModelResponse(parts=[TextPart(f"answer {n}")], timestamp=when),
    ]


def _record(n: int) -> dict:
    """A turn line, as section 1 wrote it: the messages in pydantic-ai's JSON form."""
    return {"type": "turn", "messages": ModelMessagesTypeAdapter.dump_python(_turn(n), mode="json")}


def _log(folder: Path, name: str, records: list[dict], torn: str = "") -> Path:
    """A JSON-lines log of `records`, and after them `torn`: the start of a line a crash cut short."""
    path = folder / name
    path.write_text("".join(json.dumps(record) + "\n" for record in records) + torn)
    return path


def _replayed(replay: Callable[[Path], list], path: Path, what: str) -> list[ModelMessage]:
    """What `replay(path)` returned, as pydantic-ai messages (JSON dicts are validated into them)."""
    got = replay(path)
    assert isinstance(got, list), f"replay() of {what} returns a list of messages, not {got!r:.80}"
    try:
        return ModelMessagesTypeAdapter.validate_python(got)
    except ValidationError as exc:
        raise AssertionError(
            f"replay() of {what} returned {got!r:.120}…: that is not a list of pydantic-ai messages"
            " (ModelMessagesTypeAdapter.validate_python turns a line's messages back into them)"
        ) from exc


def _texts(messages: list[ModelMessage]) -> list[str]:
    return [str(part.content) for message in messages for part in message.parts]  # type: ignore[union-attr]


def check_replay(replay: Callable[[Path], list]) -> Verdict:
    """`replay(path)` rebuilds the history from a JSON-lines log: each `turn` line adds its
    `messages` (pydantic-ai messages), a `clear` line empties the history, a torn last line is skipped."""

    def test() -> None:
        folder = Path(tempfile.mkdtemp(prefix="decode-exercise08-"))
        whole = _log(folder, "whole.jsonl", [_record(1), _record(2)])
        got = _replayed(replay, whole, "a complete log")
        assert got == _turn(1) + _turn(2), (
            f"a log of two turns replays to their four messages in order, not {_texts(got)}"
        )
        torn_line = json.dumps(_record(3))[:25]  # the crash came while the third turn was written
        torn = _log(folder, "torn.jsonl", [_record(1), _record(2)], torn=torn_line)
        got = _replayed(replay, torn, "a log with a torn last line")
        assert got == _turn(1) + _turn(2), (
            f"the torn last line ({torn_line!r}) is skipped and every complete turn kept; got {_texts(got)}"
        )
        cleared = _log(folder, "cleared.jsonl", [_record(1), {"type": "clear"}, _record(3)], torn='{"type": "tu')
        got = _replayed(replay, cleared, "a log with a clear line")
        assert got == _turn(3), f"a `clear` line empties the history: expected the third turn, got {_texts(got)}"

    return check("a log replays to its history, past a clear and a torn last line", test)


# --- exercise 2: a pruning rule ---------------------------------------------------------------------


FILES = ("a.txt", "b.txt", "c.txt", "d.txt")


def _history() -> list[ModelMessage]:
    """A real history on decode's Agent Loop: a turn that reads two files at once (one request,
    two tool outputs), then a turn for each of the other two."""
    folder = Path(tempfile.mkdtemp(prefix="decode-exercise08-")).resolve()
    for name in FILES:
        (folder / name).write_text("".join(f"{name} line {n}: some long text to read\n" for n in range(40)))
    reads = [[FILES[0], FILES[1]], [FILES[2]], [FILES[3]]]
    responses = []
    for names in reads:
        calls = [{"name": "read", "args": {"path": name}} for name in names]
        responses += [{"tool_calls": calls}, {"text": f"Read {' and '.join(names)}."}]
    (folder / "script.json").write_text(json.dumps(responses))
    settings = Settings(_env_file=None, gemini_api_key=None)
    agent = build_agent(ScriptedModel.from_file(folder / "script.json"), tools=FILE_TOOLS)
    loop = AgentLoop(agent, AgentDeps(LocalExecutor(folder), settings, harness_home=folder))

    async def turns() -> None:
        for names in reads:
            async for _event in loop.run_turn(f"read {' and '.join(names)}"):
                pass

    cwd = os.getcwd()
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, turns()).result()
    os.chdir(cwd)
    return loop.history


def _outputs(messages: Sequence[ModelMessage]) -> list[tuple[int, ToolReturnPart]]:
    return [
        (index, part)
        for index, message in enumerate(messages)
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    ]


def check_prune(prune: Callable[[list[ModelMessage], int], list[ModelMessage]]) -> Verdict:
    """`prune(messages, keep_last)` returns a copy in which every tool output before the last
    `keep_last` messages is `placeholder(part)`; the recent ones, and `messages` itself, unchanged."""

    def test() -> None:
        history = _history()
        originals = _outputs(history)
        assert len({index for index, _ in originals}) < len(originals), "the history has a request with two outputs"
        # 12 messages, outputs at 2 (two of them), 6 and 10. keep_last=6 keeps index 6 (the
        # boundary); 5 prunes it; 0 prunes everything; 12 nothing.
        for keep_last in (5, 6, 0, 12):
            given = copy.deepcopy(history)
            pruned = prune(given, keep_last)
            assert given == history, "prune() changed the history it was given: memory and the log keep every output"
            assert isinstance(pruned, list), f"prune() returns a list of messages, not {pruned!r:.80}"
            assert len(pruned) == len(history), (
                f"prune(messages, {keep_last}) returns as many messages as it was given ({len(history)}),"
                f" not {len(pruned)}"
            )
            got = _outputs(pruned)
            assert [(i, p.tool_call_id) for i, p in got] == [(i, p.tool_call_id) for i, p in originals], (
                "every tool output stays in its place, with its tool_call_id (the call still needs its answer)"
            )
            recent = len(history) - keep_last
            for (index, part), (_, original) in zip(got, originals, strict=True):
                if index >= recent:
                    assert part.content == original.content, (
                        f"with keep_last={keep_last}, message {index} is one of the last {keep_last}"
                        f" (of {len(history)}): keep its output ({original.tool_name} of"
                        f" {original.tool_call_id!r})"
                    )
                else:
                    assert part.content == placeholder(original), (
                        f"with keep_last={keep_last}, message {index} is older than the last {keep_last}"
                        f" (of {len(history)}): its output for call {original.tool_call_id!r} should be"
                        f" {placeholder(original)!r}, not {str(part.content)[:60]!r}…"
                    )

    return check("old tool outputs become placeholders, recent ones and the history stay", test)
