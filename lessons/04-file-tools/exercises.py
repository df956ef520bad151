"""The check of lesson 04's exercise: a tool of your own, on real files and on the scripted model.

from exercises import check_count_lines
check_count_lines(COUNT_LINES)
"""

import asyncio
import concurrent.futures
import inspect
import json
import tempfile
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from course import Verdict, check


def _run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run `coroutine` on an event loop of its own (a notebook's kernel already runs one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        return worker.submit(asyncio.run, coroutine).result()


async def _exercise(spec: Any, scratch: Path) -> None:
    from pydantic_ai import ModelRetry, RunContext
    from pydantic_ai.models.test import TestModel
    from pydantic_ai.usage import RunUsage

    from decode.agent.factory import build_agent
    from decode.agent.loop import AgentLoop
    from decode.config.settings import Settings
    from decode.entities.deps import AgentDeps
    from decode.entities.events import ToolCallFinished
    from decode.models.gateway import resolve_model
    from decode.tools.local import LocalExecutor

    workspace = scratch / "project"
    (workspace / "src").mkdir(parents=True)
    (workspace / "three.txt").write_text("one\ntwo\nthree\n")
    (workspace / "src" / "two.py").write_text("x = 1\ny = 2")  # no newline after the last line
    (workspace / "empty.txt").write_text("")
    (scratch / "outside.txt").write_text("a\nb\nc\nd\n")
    (workspace / "escape").symlink_to(scratch)  # a folder inside that leads out

    settings = Settings()
    deps = AgentDeps(executor=LocalExecutor(workspace), settings=settings, harness_home=workspace)
    ctx = RunContext(deps=deps, model=TestModel(), usage=RunUsage())

    async def count(path: str) -> Any:
        result = spec.function(ctx, path)
        return await result if inspect.isawaitable(result) else result

    for path, expected in [("three.txt", 3), ("src/two.py", 2), ("empty.txt", 0), (str(workspace / "three.txt"), 3)]:
        got = await count(path)
        assert got == expected, f"count_lines({path!r}) gave {got!r}, not {expected}"
    for path in ["../outside.txt", str(scratch / "outside.txt"), "escape/outside.txt"]:
        try:
            got = await count(path)
        except ModelRetry:
            continue
        shown = path.replace(str(scratch), "<scratch>")
        raise AssertionError(f"count_lines({shown!r}) is outside the Workspace and gave {got!r}: refuse it")

    # As a tool: the model calls it by name, and reads what it returns.
    script = scratch / "turns.json"
    calls = [{"name": "count_lines", "args": {"path": "three.txt"}}]
    script.write_text(json.dumps([{"tool_calls": calls}, {"text": "three.txt has 3 lines."}]))
    loop = AgentLoop(build_agent(resolve_model(f"script:{script}", settings), tools=[spec]), deps)
    results = [event.result async for event in loop.run_turn("count") if isinstance(event, ToolCallFinished)]
    assert len(results) == 1, "the scripted model called count_lines once, but no result came back"
    answered = f"called by the agent, count_lines(three.txt) answered {results[0].content!r}"
    assert not results[0].is_error, answered
    assert results[0].content.strip() == "3", answered


def check_count_lines(spec: Any) -> Verdict:
    """`spec` is the ToolSpec of a read-only `count_lines(ctx, path)` confined to the Workspace."""

    def test() -> None:
        from decode.entities.tools import ToolKind, ToolSpec

        assert isinstance(spec, ToolSpec), f"COUNT_LINES should be a ToolSpec, not {type(spec).__name__}"
        assert spec.name == "count_lines", f"the tool is called count_lines, not {spec.name!r}"
        with tempfile.TemporaryDirectory() as scratch:
            _run(_exercise(spec, Path(scratch).resolve()))
        kind = spec.traits.kind
        assert kind is ToolKind.READ_ONLY, f"count_lines only reads: its kind is ToolKind.READ_ONLY, not {kind}"
        assert "Read" in spec.traits.rules, "count_lines reads files: `Read` rules govern it (rules=('Read',))"
        assert spec.traits.path == "path", "the traits name the argument that holds the path (path='path')"

    return check("count_lines counts the lines of Workspace files, and nothing else", test)
