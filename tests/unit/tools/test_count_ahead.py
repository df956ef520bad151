"""Counting ahead: page 1 of a large file leaves the Line Index counted, in the background.

`BLOCK` and `MIN_BYTES` are set low so a file of a few hundred KB is "large" and has many marks.
A test waits for the background count to end (its future, with a generous timeout), never for a
delay.
"""

import asyncio
import os
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path

import pytest
from pydantic_ai import RunContext

from decode.entities.deps import AgentDeps
from decode.entities.executor import EntryKind
from decode.processes.local import LocalExecutor
from decode.tools import count_ahead, line_index
from decode.tools.read import read

WAIT_S = 60.0


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(line_index, "BLOCK", 4096)
    monkeypatch.setattr(count_ahead, "MIN_BYTES", 32 * 4096)
    line_index._INDEXES.clear()


def _log(path: Path, lines: int) -> bytes:
    data = b"".join(f"{n:07} line of the log, uneven {'x' * (n % 23)}\n".encode() for n in range(1, lines + 1))
    path.write_bytes(data)
    return data


async def test_page_one_of_a_large_file_leaves_every_mark_counted(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    data = _log(workspace / "big.log", 20_000)  # ~1 MB: 250 blocks
    page = await read(ctx, "big.log")
    executor = ctx.deps.executor
    stat = await executor.stat(workspace / "big.log")
    assert stat is not None
    index = line_index.index_for(executor, (workspace / "big.log").resolve(), stat)
    if not isinstance(executor, LocalExecutor):  # through commands only: nothing runs ahead
        assert index.ahead is None
        return
    assert "more follow" in page
    assert index.ahead is not None
    index.ahead.result(timeout=WAIT_S)
    assert index.marks[-1][0] + line_index.BLOCK > len(data)  # counted to the end
    assert all(before == data[:byte].count(b"\n") for byte, before in index.marks)
    deep = (await read(ctx, "big.log", offset=19_990, limit=2)).splitlines()[:2]
    assert deep == [f"{n:>6}\t{n:07} line of the log, uneven {'x' * (n % 23)}" for n in (19_990, 19_991)]


async def test_a_count_ahead_stops_at_the_first_block_after_the_file_changed(workspace: Path) -> None:
    path = workspace / "big.log"
    data = _log(path, 20_000)
    executor = LocalExecutor(workspace)
    stat = await executor.stat(path)
    assert stat is not None
    seen = replace(stat, mtime_ns=stat.mtime_ns - 1)  # what the reader saw: the file changed since
    count_ahead.count_ahead(executor, path, seen)
    index = line_index.index_for(executor, path, seen)
    assert index.ahead is not None
    index.ahead.result(timeout=WAIT_S)
    assert index.marks == [(0, 0), (4096, data[:4096].count(b"\n"))]


async def test_a_fifo_taken_for_a_large_file_ends_the_count_without_blocking(workspace: Path) -> None:
    os.mkfifo(workspace / "pipe")  # opening it to read would wait for a writer forever
    executor = LocalExecutor(workspace)
    stat = await executor.stat(workspace / "pipe")
    assert stat is not None
    assert stat.kind is EntryKind.OTHER
    count_ahead.count_ahead(executor, workspace / "pipe", stat)  # not a regular file: never started
    assert line_index.index_for(executor, workspace / "pipe", stat).ahead is None
    posing = replace(stat, kind=EntryKind.FILE, size=1 << 30)  # swapped after it was looked at
    count_ahead.count_ahead(executor, workspace / "pipe", posing)
    index = line_index.index_for(executor, workspace / "pipe", posing)
    assert index.ahead is not None
    index.ahead.result(timeout=WAIT_S)  # refused when opened, as reads refuse it
    assert index.marks == [(0, 0)]


async def test_one_file_is_counted_ahead_at_a_time(workspace: Path) -> None:
    executor = LocalExecutor(workspace)
    stats = []
    for name in ("a.log", "b.log"):
        _log(workspace / name, 20_000)
        stats.append(await executor.stat(workspace / name))
    first, second = stats
    assert first is not None
    assert second is not None
    count_ahead.count_ahead(executor, workspace / "a.log", first)
    stop_first = count_ahead._stop
    count_ahead.count_ahead(executor, workspace / "b.log", second)
    assert stop_first.is_set()
    assert not count_ahead._stop.is_set()
    for name, stat in (("a.log", first), ("b.log", second)):
        ahead = line_index.index_for(executor, workspace / name, stat).ahead
        assert ahead is not None
        ahead.result(timeout=WAIT_S)


async def test_a_small_file_is_not_counted_ahead(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    _log(workspace / "small.log", 2_000)  # ~90 KB, over a page, under MIN_BYTES here
    assert "more follow" in await read(ctx, "small.log")
    stat = await ctx.deps.executor.stat(workspace / "small.log")
    assert stat is not None
    assert line_index.index_for(ctx.deps.executor, (workspace / "small.log").resolve(), stat).ahead is None


async def test_a_page_the_count_ahead_already_passed_does_not_wait_for_the_rest_of_it(workspace: Path) -> None:
    # A 4 GB+ file (sparse, or a big log out of the page cache) takes seconds to count ahead, to
    # `MAX_COUNTED`: page 2, asked for once the count passed it, must not wait for all of that.
    path = workspace / "big.log"
    data = _log(path, 20_000)
    executor = LocalExecutor(workspace)
    stat = await executor.stat(path)
    assert stat is not None
    index = line_index.index_for(executor, path, stat)
    line_index.scan(path, index, 0, 0, 4_000)  # what the count ahead has marked so far: past line 2001
    index.ahead = running = Future()  # and it goes on (a count of gigabytes, still under way)
    start, line = await asyncio.wait_for(line_index.line_start(executor, path, stat, 2_001), WAIT_S)
    assert not running.done()
    assert (start, line) == (len(b"".join(data.splitlines(keepends=True)[:2_000])), 2_001)


async def test_a_sparse_file_past_the_bound_is_counted_ahead_only_to_the_bound(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A command can make a file of terabytes in no time (`truncate -s 1T`): the thread that counts
    # it ahead must stop at `MAX_COUNTED`, not spin through all of it.
    monkeypatch.setattr(line_index, "MAX_COUNTED", 64 * 4096)
    path = workspace / "sparse.log"
    with path.open("wb") as sparse:
        sparse.truncate(1 << 40)
    executor = LocalExecutor(workspace)
    stat = await executor.stat(path)
    assert stat is not None
    count_ahead.count_ahead(executor, path, stat)
    index = line_index.index_for(executor, path, stat)
    assert index.ahead is not None
    index.ahead.result(timeout=WAIT_S)
    assert index.marks[-1] == (64 * 4096, 0)  # one mark a block, to the bound, then no more
