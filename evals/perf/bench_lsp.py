"""Code intelligence (lesson 16): the real `ty server` on a copy of this repository's `decode/`.

- First start: spawn `ty server`, initialize, open a file and pull its diagnostics (median of 5
  fresh servers). Limit 1 s.
- Diagnostics after an edit: the `edit` tool's whole call on a module the benchmark writes into
  the copy (`decode/bench_probe.py`: no change to the package can move or comment out what it
  edits) with a type error introduced, three of the package's documents open (their diagnostics
  pulled before and after, ADR-0061), against the same edit with no language server. Target: ≤ 0.5 s more (the issue's).
- A definition request across files, through the `lsp` tool (warm server). Limit 0.1 s.
"""

import asyncio
import shutil
import statistics
import time
from collections.abc import Iterator
from pathlib import Path

from perf import Context, Figure

RUNS = 7
TARGET = "decode/bench_probe.py"
OTHERS = ("decode/agent/loop.py", "decode/tools/edit.py", "decode/entities/deps.py")
PROBE = '''"""What bench_lsp edits: written into the copy, so the package's own files never move it."""

from decode.agent.factory import build_agent


def _bench_edit_target() -> int:
    return len("bench")


BUILD = build_agent
'''
"""The copy's TARGET: the line BREAK edits, and a use of `build_agent` to ask the definition of."""
BREAK = ('return len("bench")', 'return "bench"')


def _copy(ctx: Context) -> Path:
    root = ctx.tmp / "repo"
    shutil.copytree(ctx.root / "decode", root / "decode", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ctx.root / "pyproject.toml", root / "pyproject.toml")
    (root / TARGET).write_text(PROBE, encoding="utf-8")
    missing = [other for other in OTHERS if not (root / other).is_file()]
    if missing:
        raise RuntimeError(f"bench_lsp: documents to keep open are gone from decode/: {', '.join(missing)}")
    return root


def _ctx(root: Path, lsp: bool):
    from pydantic_ai import RunContext
    from pydantic_ai.models.test import TestModel
    from pydantic_ai.usage import RunUsage

    from decode.config.settings import Settings
    from decode.entities.deps import AgentDeps
    from decode.lsp.manager import LspManager
    from decode.processes.local import LocalExecutor

    executor = LocalExecutor(root)
    manager = LspManager(executor, timeout=30.0) if lsp else None
    deps = AgentDeps(executor, Settings(lsp_edit_timeout=30.0), harness_home=root, lsp=manager)
    return RunContext(deps=deps, model=TestModel(), usage=RunUsage(), tool_call_id="bench")


async def _first_start(root: Path) -> float:
    from decode.lsp.manager import LspManager
    from decode.processes.local import LocalExecutor

    path = root / OTHERS[0]  # a real module of the package: its imports are what ty checks first
    manager = LspManager(LocalExecutor(root), timeout=30.0)
    started = time.perf_counter()

    async def pull(client):
        await client.sync(path, path.read_text())
        return await client.diagnostics(path)

    await manager.run(path, pull)
    elapsed = time.perf_counter() - started
    await manager.close()
    return elapsed


async def _edits(root: Path, lsp: bool) -> tuple[list[float], str]:
    from decode.tools.edit import edit
    from decode.tools.lsp import lsp as lsp_tool
    from decode.tools.read import read

    ctx = _ctx(root, lsp)
    if lsp:
        for other in OTHERS:
            await lsp_tool(ctx, "diagnostics", other)
    times, last = [], ""
    for _ in range(RUNS):
        for old, new in (BREAK, BREAK[::-1]):
            await read(ctx, TARGET)
            started = time.perf_counter()
            result = await edit(ctx, TARGET, old, new)
            if old == BREAK[0]:
                times.append(time.perf_counter() - started)
                last = result
    if ctx.deps.lsp is not None:
        await ctx.deps.lsp.close()
    return times, last


async def _definitions(root: Path) -> list[float]:
    from decode.tools.lsp import lsp as lsp_tool

    ctx = _ctx(root, True)
    await lsp_tool(ctx, "definition", TARGET, symbol="build_agent")  # starts the server
    times = []
    for _ in range(RUNS):
        started = time.perf_counter()
        answer = await lsp_tool(ctx, "definition", TARGET, symbol="build_agent")
        times.append(time.perf_counter() - started)
    assert answer.startswith("decode/agent/factory.py:"), answer
    assert ctx.deps.lsp is not None
    await ctx.deps.lsp.close()
    return times


def benchmarks(ctx: Context) -> Iterator[Figure]:
    root = _copy(ctx)

    async def measure() -> tuple[list[float], list[float], list[float], str, list[float]]:
        starts = [await _first_start(root) for _ in range(5)]
        with_lsp, result = await _edits(root, True)
        without, _ = await _edits(root, False)
        return starts, with_lsp, without, result, await _definitions(root)

    starts, with_lsp, without, result, definitions = asyncio.run(measure())
    if "New errors after this edit (ty)" not in result:
        raise RuntimeError(f"the edit did not report the error it introduced:\n{result}")
    start = statistics.median(starts)
    yield Figure("ty server: first start to first diagnostics", start, "s", limit=1.0, note="median of 5")
    added = statistics.median(with_lsp) - statistics.median(without)
    alone, checked = statistics.median(without) * 1000, statistics.median(with_lsp) * 1000
    note = f"median of {RUNS}; edit alone {alone:.1f} ms, with ty {checked:.1f} ms"
    yield Figure("diagnostics after an edit (3 other docs open)", added, "s", limit=0.5, note=note)
    yield Figure(
        "lsp definition across files (warm)", statistics.median(definitions), "s", limit=0.1, note=f"median of {RUNS}"
    )
