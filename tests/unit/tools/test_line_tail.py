"""Counting back from the end: a page near the end of a large file, first read there, is numbered
as counting from the top would number it, and leaves true marks behind.

`BLOCK` and `MIN_BYTES` are set low, so a file of about 1 MB is large and holds ~250 blocks.
"""

from pathlib import Path

import pytest
from pydantic_ai import RunContext, ToolFailed

from decode.entities.deps import AgentDeps
from decode.processes.local import LocalExecutor
from decode.tools import line_index, line_tail
from decode.tools.read import read

LINES = 20_000


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(line_index, "BLOCK", 4096)
    monkeypatch.setattr(line_tail, "MIN_BYTES", 64 * 4096)
    line_index._INDEXES.clear()


def _line(n: int) -> str:
    return f"{n:07} entry {'y' * (n * 7 % 31)}"


def _log(path: Path, ending: bytes = b"\n") -> bytes:
    data = "\n".join(_line(n) for n in range(1, LINES + 1)).encode() + ending
    path.write_bytes(data)
    return data


async def _index(workspace: Path) -> line_index.LineIndex:
    executor = LocalExecutor(workspace)
    stat = await executor.stat(workspace / "big.log")
    assert stat is not None
    return line_index.index_for(executor, (workspace / "big.log").resolve(), stat)


# The run-only executor counts every case forward, one `sh` per 4 KiB block (~250 a case): two cases of it do.
PAGES = [("local", offset, ending) for offset in (LINES, LINES - 1, LINES - 2_345, 15_001) for ending in (b"\n", b"")]
PAGES += [("run-only", LINES, b""), ("run-only", LINES - 2_345, b"\n")]


@pytest.mark.parametrize(("executor", "offset", "ending"), PAGES, indirect=["executor"])
async def test_a_page_near_the_end_read_first_is_numbered_right(
    ctx: RunContext[AgentDeps], workspace: Path, offset: int, ending: bytes
) -> None:
    data = _log(workspace / "big.log", ending)
    page = (await read(ctx, "big.log", offset=offset, limit=3)).split("\n\n[")[0].splitlines()
    assert page == [f"{n:>6}\t{_line(n)}" for n in range(offset, min(offset + 3, LINES + 1))]
    marks = (await _index(workspace)).marks
    assert all(before == data[:byte].count(b"\n") for byte, before in marks)
    if isinstance(ctx.deps.executor, LocalExecutor):
        assert marks[-1][0] == (len(data) - 1) // 4096 * 4096  # counted back from the last block
        assert len(marks) < 100  # and not forward through the other ~200


async def test_a_page_near_the_top_is_counted_forward(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    data = _log(workspace / "big.log")
    page = (await read(ctx, "big.log", offset=3_000, limit=1)).splitlines()[0]
    assert page == f"{3_000:>6}\t{_line(3_000)}"
    marks = (await _index(workspace)).marks
    assert [byte for byte, _ in marks] == [n * 4096 for n in range(len(marks))]  # no gap: from the top
    assert marks[-1][0] < len(data) // 2


async def test_forward_counting_fills_the_gap_before_marks_made_from_the_end(
    ctx: RunContext[AgentDeps], workspace: Path
) -> None:
    data = _log(workspace / "big.log")
    await read(ctx, "big.log", offset=LINES - 10)
    middle = (await read(ctx, "big.log", offset=10_000, limit=1)).splitlines()[0]
    assert middle == f"{10_000:>6}\t{_line(10_000)}"
    index = await _index(workspace)
    assert all(before == data[:byte].count(b"\n") for byte, before in index.marks)
    assert index.marks == sorted(index.marks)


PAST = [("local", b"\n"), ("local", b""), ("run-only", b"")]


@pytest.mark.parametrize(("executor", "ending"), PAST, indirect=["executor"])
async def test_an_offset_past_the_end_still_says_how_many_lines_there_are(
    ctx: RunContext[AgentDeps], workspace: Path, ending: bytes
) -> None:
    _log(workspace / "big.log", ending)
    with pytest.raises(ToolFailed, match=f"offset {LINES + 5} is past the end of big.log, which has {LINES:,} lines"):
        await read(ctx, "big.log", offset=LINES + 5)
    with pytest.raises(ToolFailed, match=f"which has {LINES:,} lines"):
        await read(ctx, "big.log", offset=LINES + 1)


async def test_a_fifo_swapped_in_after_the_stat_is_refused_not_waited_on(workspace: Path) -> None:
    # The file looked at was a large log; what the path names when the end is counted is a FIFO
    # (`wc -l` on it, or the count back, would wait for a writer forever).
    import asyncio
    import os

    path = workspace / "big.log"
    _log(path)
    executor = LocalExecutor(workspace)
    stat = await executor.stat(path)
    assert stat is not None
    os.mkfifo(workspace / "pipe")
    path.unlink()
    path.symlink_to(workspace / "pipe")
    with pytest.raises(OSError, match="Not a regular file"):
        await asyncio.wait_for(line_index.line_start(executor, path, stat, LINES - 10), 60)


async def test_a_count_ahead_still_marking_is_never_joined_by_a_count_from_the_end(workspace: Path) -> None:
    # A first block of one long line makes the end look nearer than it is; two threads marking one
    # index at once could leave its marks out of order (wrong line numbers from then on).
    from concurrent.futures import Future

    path = workspace / "big.log"
    data = b"x" * 5000 + b"\n" + b"".join(b"%07d\n" % n for n in range(150_000))
    path.write_bytes(data)
    executor = LocalExecutor(workspace)
    stat = await executor.stat(path)
    assert stat is not None
    index = line_index.index_for(executor, path, stat)
    line_index.scan(path, index, 0, 0, 60_000)  # the count ahead so far
    index.ahead = Future()  # still under way
    marks = list(index.marks)
    start, line = await line_index.line_start(executor, path, stat, 50_001)
    assert (start, line) == (5001 + 49_999 * 8, 50_001)
    assert index.marks == marks  # read from the marks made: nothing counted from the end beside the count
