"""The Agent Loop (issue 27): what decode's loop adds to each tool round trip of a long turn.

One turn of 200 tool calls, played by a zero-latency scripted model, through the loop the
composition root builds (default tools, the Permission Gate deciding every call, the Session Log,
the dynamic instructions, decode's events) against a bare pydantic-ai agent running the same
script with the same tools and nothing else: target 1.3x. The samples alternate (subject,
baseline, baseline, subject…) and the medians are compared, so load on the machine hits both.

The workspace is a git repository with a change in it, as a user's project is: the git status
the instructions carry is part of what a request costs.

`python evals/perf/bench_loop.py --profile` profiles one decode turn instead (cProfile, the 30
costliest functions by cumulative time).
"""

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from perf import Comparison, Context, Subject

STEPS = 200
PROMPT = f"read the notes {STEPS} times"


def _script() -> list[dict]:
    return [{"tool_calls": [{"name": "read", "args": {"path": "notes.txt"}}]}] * STEPS + [{"text": "done"}]


def _workspace(tmp: Path) -> tuple[Path, Path]:
    """A small git repository with one uncommitted change, and the script file beside it."""
    workspace = tmp / "loop"
    workspace.mkdir()
    (workspace / "notes.txt").write_text("one line of notes\n" * 20)
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com"]
    subprocess.run([*git, "init", "-q"], cwd=workspace, check=True)
    subprocess.run([*git, "add", "."], cwd=workspace, check=True)
    subprocess.run([*git, "commit", "-qm", "notes"], cwd=workspace, check=True)
    (workspace / "notes.txt").write_text("one changed line of notes\n" * 20)
    script = tmp / "round-trip.json"
    script.write_text(json.dumps(_script()), encoding="utf-8")
    return workspace, script


async def decode_turn(workspace: Path, script: Path) -> None:
    """What every front end runs: the composition root's loop, its gate, log and events."""
    from decode.agent.compose import LoopOptions, build_loop
    from decode.config.settings import Settings

    options = LoopOptions(home=workspace, model=f"script:{script}", max_requests=STEPS + 5, mcp=False)
    loop = build_loop(options, Settings()).loop
    async for _ in loop.run_turn(PROMPT):
        pass


async def bare_turn(workspace: Path) -> None:
    """The same script and tools run by pydantic-ai alone: no events, gate, log or dynamic instructions."""
    from pydantic_ai import Agent
    from pydantic_ai.usage import UsageLimits

    from decode.agent.factory import BASE_INSTRUCTIONS
    from decode.config.settings import Settings
    from decode.entities.deps import AgentDeps
    from decode.models.script import ScriptedModel, ScriptedResponse
    from decode.processes.local import LocalExecutor
    from decode.tools.catalog import default_tools

    responses = [ScriptedResponse.model_validate(item) for item in _script()]
    agent = Agent(
        ScriptedModel(responses),
        deps_type=AgentDeps,
        instructions=BASE_INSTRUCTIONS,
        tools=[spec.to_tool() for spec in default_tools()],
    )
    deps = AgentDeps(LocalExecutor(workspace), Settings(), harness_home=workspace)
    async with agent.iter(PROMPT, deps=deps, usage_limits=UsageLimits(request_limit=STEPS + 5)) as run:
        async for node in run:
            if Agent.is_model_request_node(node) or Agent.is_call_tools_node(node):
                async with node.stream(run.ctx) as stream:
                    async for _ in stream:
                        pass


def benchmarks(ctx: Context) -> Iterator[Comparison]:
    workspace, script = _workspace(ctx.tmp)
    yield Comparison(
        f"tool round trip ×{STEPS} in one turn (scripted model)",
        Subject("decode AgentLoop + default tools", lambda: asyncio.run(decode_turn(workspace, script))),
        Subject("bare pydantic-ai agent, same tools", lambda: asyncio.run(bare_turn(workspace))),
        target=1.3,
        runs=7,
        issue=27,
    )


def _profile() -> None:
    import cProfile
    import pstats
    import tempfile

    with tempfile.TemporaryDirectory() as scratch:
        workspace, script = _workspace(Path(scratch))
        asyncio.run(decode_turn(workspace, script))  # warm: imports, caches
        profiler = cProfile.Profile()
        profiler.runcall(lambda: asyncio.run(decode_turn(workspace, script)))
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(30)


if __name__ == "__main__":
    if "--profile" in sys.argv:
        sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
        _profile()
