"""File tools at scale (issue 27): searches over 100,000 files, the gate inside them, reads deep in a big file.

- `glob('**/*.py')` through the tool (newest first, the Permission Gate as its Search Filter)
  against unsorted `rg --files` over the same tree: target 1.5x.
- The same glob with the gate against the same glob with no filter at all: the gate is asked only
  about what a search shows, so it adds almost nothing (target 1.1x); and how many paths it was
  asked about (a real gate subclass counts them; target: the 100 shown, one more, and the hidden
  ones stepped over, here none).
- `grep('needle')` (files mode) through the tool against `rg --files-with-matches`: target 1.5x.
- The floor under the sorted glob: ripgrep's sorted walk alone against its unsorted one (ADR-0110).
- `read` of the last page of a 200 MB log against its first page (target 5x, was 191x at 50 MB:
  once the Line Index has counted the file, a page costs the first page plus one 1 MB block), the
  last page on its own (target 50 ms, the issue's), and the first read at the end (`wc -l`, then
  counting back from the end) and in the middle (counting forward half the file) against `wc -l`
  (target 1.5x); and `cat` of the file against `wc -l`: what reading it from the page cache costs.
"""

import asyncio
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from perf import LOG_LINE, Comparison, Context, Figure, Subject, big_log, command

if TYPE_CHECKING:
    from pydantic_ai import RunContext

    from decode.entities.deps import AgentDeps
    from decode.entities.search_filter import SearchFilter

FILES = 100_000
LOG_BYTES = 200 * 1024 * 1024


def _tree(root: Path) -> Path:
    """100,000 small files in 500 folders of a git repository; a third of them hold `needle`."""
    for folder in range(500):
        where = root / f"pkg{folder % 20}" / f"mod{folder}"
        where.mkdir(parents=True)
        for n in range(FILES // 500):
            text = "needle = 1\n" if n % 3 == 0 else "x = 1\n"
            (where / (f"f{n}.py" if n % 4 else f"f{n}.txt")).write_text(text)
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    return root


def _context(workspace: Path, search_filter: "SearchFilter | None" = None) -> "RunContext[AgentDeps]":
    from pydantic_ai import RunContext
    from pydantic_ai.models.test import TestModel
    from pydantic_ai.usage import RunUsage

    from decode.config.settings import Settings
    from decode.entities.deps import AgentDeps
    from decode.entities.search_filter import ShowAll
    from decode.processes.local import LocalExecutor

    deps = AgentDeps(
        LocalExecutor(workspace), Settings(), harness_home=workspace, search_filter=search_filter or ShowAll()
    )
    return RunContext(deps=deps, model=TestModel(), usage=RunUsage())


def _search_benchmarks(ctx: Context) -> Iterator[Comparison | Figure]:
    from decode.permissions.gate import PermissionGate
    from decode.tools.glob import glob
    from decode.tools.grep import grep

    class CountingGate(PermissionGate):
        asked = 0

        async def hidden(self, paths: Sequence[Path]) -> set[Path]:
            self.asked += len(paths)
            return await super().hidden(paths)

    tree = _tree(ctx.tmp / "tree")
    gate = CountingGate(workspace=tree, home=ctx.tmp / "home")
    gated, bare = _context(tree, gate), _context(tree)
    rg = ctx.bin("rg")
    glob_gated = Subject("glob('**/*.py'), the gate", lambda: asyncio.run(glob(gated, "**/*.py")))
    yield Comparison(
        "sorted glob, 100k files",
        glob_gated,
        command([rg, "--files", tree], label="rg --files (unsorted)"),
        target=1.5,
        runs=10,
        issue=27,
    )
    yield Comparison(  # the floor under the row above (ADR-0110): ripgrep's own walk, statting every file
        "sorted walk alone, 100k files",
        command([rg, "--files", "--sortr=modified", tree], label="rg --files --sortr=modified"),
        command([rg, "--files", tree], label="rg --files (unsorted)"),
        target=1.5,
        runs=10,
    )
    yield Comparison(
        "glob with the gate vs no filter, 100k files",
        glob_gated,
        Subject("glob('**/*.py'), no filter", lambda: asyncio.run(glob(bare, "**/*.py"))),
        target=1.1,
        runs=10,
    )
    gate.asked = 0
    asyncio.run(glob(gated, "**/*.py"))
    yield Figure(
        "gate checks in one glob, 100k files", gate.asked, "paths", limit=101, note=f"{FILES:,} files", issue=27
    )
    yield Comparison(
        "grep files, 100k files",
        Subject("grep('needle'), the gate", lambda: asyncio.run(grep(gated, "needle"))),
        command([rg, "--files-with-matches", "needle", tree], label="rg -l needle"),
        target=1.5,
        runs=10,
    )


def _read_benchmarks(ctx: Context) -> Iterator[Comparison | Figure]:
    import statistics
    import time

    from decode.tools import line_index
    from decode.tools.read import read

    big = big_log(ctx.tmp / "big.log", LOG_BYTES)
    last = (big.stat().st_size // len(LOG_LINE)) - 100
    tool = _context(ctx.tmp)

    def last_page() -> None:
        asyncio.run(read(tool, "big.log", offset=last))

    def counted_afresh() -> None:
        line_index._INDEXES.clear()  # as the first read at the end of a file not read before
        last_page()

    last_page()  # the Line Index counts the file once
    yield Comparison(
        "read last page vs first page, 200 MB",
        Subject("read('big.log', offset=last)", last_page),
        Subject("read('big.log')", lambda: asyncio.run(read(tool, "big.log"))),
        target=5.0,
        runs=20,
    )
    walls = []
    for _ in range(10):
        started = time.perf_counter()
        last_page()
        walls.append(time.perf_counter() - started)
    yield Figure(
        "read last page of 200 MB", statistics.median(walls) * 1e3, "ms", limit=50, note="median of 10", issue=27
    )
    firsts = []
    for _ in range(3):  # the issue's "any page": the first read there counts the file's lines first
        started = time.perf_counter()
        counted_afresh()
        firsts.append(time.perf_counter() - started)
    yield Figure(
        "first read at the end of a 200 MB file", statistics.median(firsts) * 1e3, "ms", 50, "median of 3", issue=27
    )
    yield Comparison(
        "read at the end, file not counted yet, 200 MB",
        Subject("read('big.log', offset=last), no index", counted_afresh),
        command(["wc", "-l", big], label="wc -l"),
        target=1.5,
        runs=5,
    )

    def middle_afresh() -> None:  # the farthest page from both ends: counted forward, half the file
        line_index._INDEXES.clear()
        asyncio.run(read(tool, "big.log", offset=last // 2))

    yield Comparison(
        "read in the middle, file not counted yet, 200 MB",
        Subject("read('big.log', offset=last/2), no index", middle_afresh),
        command(["wc", "-l", big], label="wc -l"),
        target=1.5,
        runs=5,
    )
    yield Comparison(  # the floor under both rows above: reading the file from the page cache at all
        "200 MB from the page cache vs counting its lines",
        command(["cat", big], label="cat big.log >/dev/null"),
        command(["wc", "-l", big], label="wc -l"),
        target=1.5,
        runs=5,
    )


def benchmarks(ctx: Context) -> Iterator[Comparison | Figure]:
    yield from _read_benchmarks(ctx)
    yield from _search_benchmarks(ctx)
