"""Tools (lessons 04–05): what the file tools, bash and the loop around them cost.

- `grep` and `glob` over a large tree (a hard-linked copy of the venv's site-packages, ~24k files:
  the venv itself is git-ignored) against running `rg` directly: target 1.3x. The tools run
  in-process, as the agent calls them; `rg` runs as a command.
- `read` of the first page of a 200 MB file: time against `head -n 2000`, and peak memory.
- Harness overhead per tool round trip: 200 steps of a zero-latency scripted model calling `read`,
  through the loop the composition root builds (default tools, the Permission Gate on every call,
  the Session Log), against a bare pydantic-ai agent running the same script with the same tools:
  target 1.3x.
- Fixed context cost: the first request's instructions plus tool schemas for the default agent
  (lessons 01–05 tools), at most 20,000 characters (~5k tokens). For scale, measured on a one-word
  prompt: Claude Code ~19k tokens, Codex CLI 18.6k, Gemini CLI 11.5k, OpenCode 8.3k.
"""

import asyncio
import json
import os
import shutil
import sys
import time
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from perf import Comparison, Context, Figure, Subject, big_log, command

if TYPE_CHECKING:
    from pydantic_ai import RunContext

    from decode.entities.deps import AgentDeps

STEPS = 200


def _tree(ctx: Context) -> Path:
    """site-packages, hard-linked into the scratch directory (a copy if links are not possible)."""
    source = Path(sys.prefix) / "lib" / f"python{sys.version_info.major}.{sys.version_info.minor}" / "site-packages"
    target = ctx.tmp / "tree"
    try:
        shutil.copytree(source, target, copy_function=os.link, symlinks=True)
    except OSError:
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(source, target, symlinks=True)
    return target


def _deps(workspace: Path) -> "AgentDeps":
    """What the tools get, as the composition root builds it: the local executor at `workspace`."""
    from decode.config.settings import Settings
    from decode.entities.deps import AgentDeps
    from decode.processes.local import LocalExecutor

    return AgentDeps(LocalExecutor(workspace), Settings(), harness_home=workspace)


def _tool_context(workspace: Path) -> "RunContext[AgentDeps]":
    from pydantic_ai import RunContext
    from pydantic_ai.models.test import TestModel
    from pydantic_ai.usage import RunUsage

    return RunContext(deps=_deps(workspace), model=TestModel(), usage=RunUsage())


def _search_benchmarks(ctx: Context) -> Iterator[Comparison]:
    from decode.tools.glob import glob
    from decode.tools.grep import grep

    tree = _tree(ctx)
    tool = _tool_context(tree)
    rg = ctx.bin("rg")
    yield Comparison(
        "grep files (site-packages)",
        Subject("grep('def __init__')", lambda: asyncio.run(grep(tool, r"def __init__"))),
        command([rg, "--files-with-matches", r"def __init__", tree], label="rg -l 'def __init__'"),
        target=1.3,
        runs=10,
    )
    yield Comparison(
        "grep content, *.py (site-packages)",
        Subject(
            "grep('class \\w+Error', glob='*.py', output_mode='content')",
            lambda: asyncio.run(grep(tool, r"class \w+Error", glob="*.py", output_mode="content")),
        ),
        command([rg, "-n", "--glob=*.py", r"class \w+Error", tree], label="rg -n -g '*.py' 'class \\w+Error'"),
        target=1.3,
        runs=10,
    )
    yield Comparison(
        "glob **/*.py (site-packages)",
        Subject("glob('**/*.py')", lambda: asyncio.run(glob(tool, "**/*.py"))),
        # The same answer from rg alone: newest first is part of what glob returns.
        command(
            [rg, "--files", "--sortr=modified", "--glob=*.py", tree], label="rg --files --sortr=modified -g '*.py'"
        ),
        target=1.3,
        runs=10,
    )


def _read_benchmarks(ctx: Context) -> Iterator[Comparison | Figure]:
    from decode.tools.read import read

    big = big_log(ctx.tmp / "big.log")
    tool = _tool_context(ctx.tmp)
    yield Comparison(
        "read first page of a 200 MB file",
        Subject("read('big.log')", lambda: asyncio.run(read(tool, "big.log"))),
        command(["head", "-n", "2000", big], label="head -n 2000"),
        target=5.0,
        runs=20,
    )
    tracemalloc.start()
    asyncio.run(read(tool, "big.log"))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    yield Figure("read first page: peak memory", peak / 1e6, "MB", limit=5.0, note="tracemalloc peak, 200 MB file")


def _script(path: Path) -> list[dict]:
    return [{"tool_calls": [{"name": "read", "args": {"path": str(path)}}]}] * STEPS + [{"text": "done"}]


def _loop_benchmarks(ctx: Context) -> Iterator[Comparison]:
    from pydantic_ai import Agent
    from pydantic_ai.usage import UsageLimits

    from decode.agent.compose import LoopOptions, build_loop
    from decode.agent.factory import BASE_INSTRUCTIONS
    from decode.config.settings import Settings
    from decode.entities.deps import AgentDeps
    from decode.models.script import ScriptedModel, ScriptedResponse
    from decode.tools.catalog import default_tools

    workspace = ctx.tmp / "loop"
    workspace.mkdir()
    (workspace / "notes.txt").write_text("one line of notes\n" * 20)
    responses = [ScriptedResponse.model_validate(item) for item in _script(Path("notes.txt"))]

    script = ctx.tmp / "round-trip.json"
    script.write_text(json.dumps(_script(Path("notes.txt"))), encoding="utf-8")

    async def decode_turn() -> None:
        # What every front end runs: the composition root's loop, with its Permission Gate
        # deciding every call and the Session Log writing the turn.
        options = LoopOptions(home=workspace, model=f"script:{script}", max_requests=STEPS + 5)
        loop = build_loop(options, Settings()).loop
        async for _ in loop.run_turn("read the notes 200 times"):
            pass

    async def bare_turn() -> None:
        # The same script and the same tools, run by pydantic-ai alone: no Agent Loop events,
        # no memory, skills or permission hook. The difference is decode's harness overhead.
        agent = Agent(
            ScriptedModel(list(responses)),
            deps_type=AgentDeps,
            instructions=BASE_INSTRUCTIONS,
            tools=[spec.to_tool() for spec in default_tools()],
        )
        deps = _deps(workspace)
        async with agent.iter(
            "read the notes 200 times", deps=deps, usage_limits=UsageLimits(request_limit=STEPS + 5)
        ) as run:
            async for node in run:
                if Agent.is_model_request_node(node) or Agent.is_call_tools_node(node):
                    async with node.stream(run.ctx) as stream:
                        async for _ in stream:
                            pass

    yield Comparison(
        f"tool round trip ×{STEPS} (scripted model)",
        Subject("decode AgentLoop + default tools", lambda: asyncio.run(decode_turn())),
        Subject("bare pydantic-ai agent, same tools", lambda: asyncio.run(bare_turn())),
        target=1.3,
        runs=5,
        issue=27,
    )


def _context_cost() -> Figure:
    from pydantic_ai.messages import ModelRequest
    from pydantic_ai.models.test import TestModel

    from decode.agent.factory import build_agent
    from decode.tools.catalog import default_tools

    model = TestModel(call_tools=[])
    agent = build_agent(model, tools=default_tools())
    result = asyncio.run(agent.run("hi", deps=_deps(Path.cwd())))
    request = next(m for m in result.all_messages() if isinstance(m, ModelRequest))
    parameters = model.last_model_request_parameters
    assert parameters is not None
    schemas = [
        {"name": t.name, "description": t.description, "parameters": t.parameters_json_schema}
        for t in parameters.function_tools
    ]
    chars = len(request.instructions or "") + len(json.dumps(schemas))
    note = (
        f"{len(schemas)} tools; instructions {len(request.instructions or ''):,} + schemas {len(json.dumps(schemas)):,}"
    )
    return Figure("fixed context cost (first request)", chars, "chars", limit=20_000, note=note)


def benchmarks(ctx: Context) -> Iterator[Comparison | Figure]:
    started = time.perf_counter()
    yield _context_cost()
    yield from _read_benchmarks(ctx)
    yield from _search_benchmarks(ctx)
    yield from _loop_benchmarks(ctx)
    print(f"  (bench_tools set-up and runs: {time.perf_counter() - started:.0f}s)", file=sys.stderr)
