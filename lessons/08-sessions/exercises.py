"""Lesson 08's exercises: each check runs the learner's function on real files and a real history.

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
from pathlib import Path
from typing import Any

from course import Verdict, check
from pydantic_ai.messages import ModelMessage, ModelRequest, ToolReturnPart

from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.context.pruning import placeholder
from decode.entities.deps import AgentDeps
from decode.models.script import ScriptedModel
from decode.tools.catalog import FILE_TOOLS
from decode.tools.local import LocalExecutor


def _guarded(description: str, call: Callable[[], Any]) -> Any:
    """Call the learner's code; an exception it raises becomes a failed check that names it."""
    try:
        return call()
    except (AssertionError, NotImplementedError):
        raise
    except Exception as exc:
        raise AssertionError(f"{description} raised {type(exc).__name__}: {exc}") from None


# --- exercise 1: replay a log a crash has torn ------------------------------------------------------


def _log(folder: Path, name: str, records: list[dict], torn: str = "") -> Path:
    """A JSON-lines log of `records`, and after them `torn`: the start of a line a crash cut short."""
    path = folder / name
    path.write_text("".join(json.dumps(record) + "\n" for record in records) + torn)
    return path


def check_replay(replay: Callable[[Path], list]) -> Verdict:
    """`replay(path)` rebuilds the history from a JSON-lines log: each `turn` line adds its
    `messages`, a `clear` line empties the history, and a torn last line is skipped."""

    def test() -> None:
        folder = Path(tempfile.mkdtemp(prefix="decode-exercise08-"))
        turns = [{"type": "turn", "messages": [f"prompt {n}", f"answer {n}"]} for n in (1, 2, 3)]
        whole = _log(folder, "whole.jsonl", turns[:2])
        got = _guarded("replay() of a complete log", lambda: replay(whole))
        assert got == ["prompt 1", "answer 1", "prompt 2", "answer 2"], (
            f"a log of two turns replays to their four messages, not {got!r}"
        )
        torn_line = json.dumps(turns[2])[:25]  # the crash came while the third turn was written
        torn = _log(folder, "torn.jsonl", turns[:2], torn=torn_line)
        got = _guarded("replay() of a log with a torn last line", lambda: replay(torn))
        assert got == ["prompt 1", "answer 1", "prompt 2", "answer 2"], (
            f"the torn last line ({torn_line!r}) is skipped and every complete turn kept; got {got!r}"
        )
        cleared = _log(folder, "cleared.jsonl", [turns[0], {"type": "clear"}, turns[2]], torn='{"type": "tu')
        got = _guarded("replay() of a log with a clear line", lambda: replay(cleared))
        assert got == ["prompt 3", "answer 3"], (
            f"a `clear` line empties the history: expected the third turn, got {got!r}"
        )

    return check("a log replays to its history, past a clear and a torn last line", test)


# --- exercise 2: a pruning rule ---------------------------------------------------------------------


def _history() -> list[ModelMessage]:
    """A real history: the `read` tool on three files, one per turn, on decode's Agent Loop."""
    folder = Path(tempfile.mkdtemp(prefix="decode-exercise08-")).resolve()
    for name in ("a.txt", "b.txt", "c.txt"):
        (folder / name).write_text("".join(f"{name} line {n}: some long text to read\n" for n in range(40)))
    responses = []
    for name in ("a.txt", "b.txt", "c.txt"):
        responses += [{"tool_calls": [{"name": "read", "args": {"path": name}}]}, {"text": f"Read {name}."}]
    (folder / "script.json").write_text(json.dumps(responses))
    settings = Settings(gemini_api_key=None)
    agent = build_agent(ScriptedModel.from_file(folder / "script.json"), tools=FILE_TOOLS)
    loop = AgentLoop(agent, AgentDeps(LocalExecutor(folder), settings, harness_home=folder))

    async def turns() -> None:
        for name in ("a.txt", "b.txt", "c.txt"):
            async for _event in loop.run_turn(f"read {name}"):
                pass

    cwd = os.getcwd()
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, turns()).result()
    os.chdir(cwd)
    return loop.history


def _outputs(messages: Sequence[ModelMessage]) -> list[tuple[int, str, str]]:
    return [
        (index, part.tool_call_id, str(part.content))
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
        before = copy.deepcopy(history)
        keep_last = 5  # the last turn (prompt, read call, output, answer) and the answer before it
        pruned = _guarded("prune()", lambda: prune(history, keep_last))
        assert history == before, "prune() changed the history it was given: memory and the log keep every output"
        assert isinstance(pruned, list), f"prune() returns a list of messages, not {pruned!r:.80}"
        assert len(pruned) == len(history), (
            f"prune() returns as many messages as it was given ({len(history)}), not {len(pruned)}"
        )
        originals = _outputs(history)
        got = _outputs(pruned)
        assert [(i, call) for i, call, _ in got] == [(i, call) for i, call, _ in originals], (
            "every tool output stays in its place, with its tool_call_id (the call still needs its answer)"
        )
        recent = len(history) - keep_last
        for (index, _call, text), (_, _, original) in zip(got, originals, strict=True):
            part = next(p for p in history[index].parts if isinstance(p, ToolReturnPart))
            if index >= recent:
                assert text == original, f"message {index} is one of the last {keep_last}: keep its output"
            else:
                assert text == placeholder(part), (
                    f"message {index} is older than the last {keep_last}: its output should be "
                    f"{placeholder(part)!r}, not {text[:60]!r}…"
                )

    return check("old tool outputs become placeholders, recent ones and the history stay", test)
