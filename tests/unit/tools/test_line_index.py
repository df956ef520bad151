"""The Line Index: `read` at any offset shows the same lines, numbered the same, as counting them one by one.

Small blocks (`BLOCK` set low) put block boundaries everywhere: inside lines, on newlines, at the
end of a file with and without a final newline. The tests that take `ctx` run against both executors.
"""

import asyncio
import os
import threading
from pathlib import Path

import pytest
from pydantic_ai import RunContext, ToolFailed

from decode.entities.deps import AgentDeps
from decode.processes.local import LocalExecutor
from decode.tools import line_index
from decode.tools.read import read


def _expected(data: bytes, offset: int, limit: int) -> list[str]:
    """The page `read` shows, worked out from the whole file (its lines here are short, plain text)."""
    lines = data.split(b"\n")
    if lines[-1] == b"":
        lines.pop()
    return [f"{n:>6}\t{lines[n - 1].decode()}" for n in range(offset, min(offset + limit, len(lines) + 1))]


def _text(count: int) -> bytes:
    """Lines of uneven length (1 to 40 bytes), some empty, so block boundaries fall everywhere."""
    return b"".join(b"x" * (n * 7 % 41) + f" {n}".encode() * (n % 3 == 0) + b"\n" for n in range(1, count + 1))


@pytest.mark.parametrize("ending", [b"", b"last line, no newline"])
async def test_every_offset_shows_the_lines_counting_would(
    ctx: RunContext[AgentDeps], workspace: Path, monkeypatch: pytest.MonkeyPatch, ending: bytes
) -> None:
    monkeypatch.setattr(line_index, "BLOCK", 64)
    data = _text(200) + ending
    (workspace / "f.txt").write_bytes(data)
    total = 200 + bool(ending)
    for offset in [*range(2, total + 1, 7), total - 1, total]:
        page = await read(ctx, "f.txt", offset=offset, limit=3)
        assert page.split("\n\n[")[0].splitlines() == _expected(data, offset, 3), offset
    with pytest.raises(ToolFailed, match=f"which has {total} lines"):
        await read(ctx, "f.txt", offset=total + 5)


@pytest.mark.parametrize("data", [b"a\n" * 32, b"a" * 63 + b"\n" + b"b" * 64, b"c" * 128])
async def test_files_ending_on_a_block_boundary_count_their_lines(
    ctx: RunContext[AgentDeps], workspace: Path, monkeypatch: pytest.MonkeyPatch, data: bytes
) -> None:
    monkeypatch.setattr(line_index, "BLOCK", 64)
    (workspace / "f.txt").write_bytes(data)
    lines = len(data.split(b"\n")) - data.endswith(b"\n")
    with pytest.raises(ToolFailed, match=f"which has {lines} lines"):
        await read(ctx, "f.txt", offset=lines + 1)
    assert (await read(ctx, "f.txt", offset=lines)).startswith(f"{lines:>6}\t")


async def test_a_changed_file_is_counted_again(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    path = workspace / "f.txt"
    before = _text(5000)
    path.write_bytes(before)
    assert (await read(ctx, "f.txt", offset=4000, limit=1)).splitlines()[0] == _expected(before, 4000, 1)[0]
    after = b"\n" + before[:-1]  # the same size, every line one further down
    path.write_bytes(after)
    os.utime(path, ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))
    assert (await read(ctx, "f.txt", offset=4001, limit=1)).splitlines()[0] == _expected(after, 4001, 1)[0]
    assert _expected(after, 4001, 1)[0].endswith(_expected(before, 4000, 1)[0].split("\t")[1])


async def test_a_file_rewritten_with_its_size_and_mtime_kept_is_counted_again(workspace: Path) -> None:
    # `cp -p`, `tar x`, `rsync -t` put the old mtime back: the index found by size and mtime is stale.
    executor, path = LocalExecutor(workspace), workspace / "f.txt"
    path.write_bytes(b"".join(b"%099d\n" % n for n in range(30_000)))  # 3 MB of 100-byte lines
    kept = path.stat()
    await line_index.line_start(executor, path, await executor.stat(path), 25_000)  # marks every BLOCK
    short_lines = b"".join(b"%09d\n" % n for n in range(300_000))  # the same size: 10-byte lines
    path.write_bytes(short_lines)
    os.utime(path, ns=(kept.st_atime_ns, kept.st_mtime_ns))
    stat = await executor.stat(path)
    assert stat is not None

    start, line = await line_index.line_start(executor, path, stat, 250_000)

    assert (start, line) == (short_lines.index(b"%09d\n" % 249_999), 250_000)


def test_a_page_near_the_end_of_a_large_file_has_the_right_numbers(workspace: Path) -> None:
    """A 40 MB file, past several real blocks: the page at line 700,000 is that line."""
    import asyncio

    from pydantic_ai.models.test import TestModel
    from pydantic_ai.usage import RunUsage

    from decode.config.settings import Settings
    from decode.processes.local import LocalExecutor

    with (workspace / "big.log").open("wb") as handle:
        for n in range(1, 720_001):
            handle.write(f"{n:09} request handled in 12ms by worker-{n % 7}\n".encode())
    deps = AgentDeps(LocalExecutor(workspace), Settings(), harness_home=workspace)
    ctx = RunContext(deps=deps, model=TestModel(), usage=RunUsage())
    page = asyncio.run(read(ctx, "big.log", offset=700_000, limit=2)).splitlines()
    assert page[:2] == [
        "700000\t000700000 request handled in 12ms by worker-0",
        "700001\t000700001 request handled in 12ms by worker-1",
    ]
    last = asyncio.run(read(ctx, "big.log", offset=720_000)).splitlines()
    assert last == ["720000\t000720000 request handled in 12ms by worker-1"]


def test_marks_made_by_threads_at_once_stay_in_order() -> None:
    # Counts run in worker threads (two reads of one large file at once, a count ahead): a mark
    # placed by one thread while another inserts must not land out of order (wrong line numbers).
    import sys
    import threading

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch between any two steps
    try:
        for _ in range(20):
            index = line_index.LineIndex()

            def count(first: int, index: line_index.LineIndex = index) -> None:
                for n in range(first, 4000, 4):
                    index.mark(n * line_index.BLOCK, n)

            threads = [threading.Thread(target=count, args=(first,)) for first in range(4)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert index.marks == [(n * line_index.BLOCK, n) for n in range(4000)]
    finally:
        sys.setswitchinterval(interval)


def _sparse(path: Path, size: int) -> Path:
    """A text file extended to `size` bytes with zeros that take no disk (`truncate -s 1T`)."""
    with path.open("wb") as sparse:
        sparse.write(b"a line of text\n" * 1000)  # more than `read` sniffs: a text file
        sparse.truncate(size)
    return path


async def test_a_line_past_the_counted_part_of_a_huge_file_is_refused_in_one_line(
    ctx: RunContext[AgentDeps], workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A command makes a file of a terabyte in no time; counting its lines would take minutes.
    monkeypatch.setattr(line_index, "BLOCK", 4096)
    monkeypatch.setattr(line_index, "MAX_COUNTED", 64 * 4096)
    _sparse(workspace / "huge.log", 1 << 40)
    with pytest.raises(ToolFailed) as refused:
        await read(ctx, "huge.log", offset=1005)
    message = str(refused.value)
    assert "huge.log has 1,099,511,627,776 bytes and line 1,005 lies past its first" in message
    assert "\n" not in message
    assert "use bash" in message


async def test_a_page_ending_in_a_line_of_a_terabyte_skips_it_only_to_the_counted_part(
    ctx: RunContext[AgentDeps], workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(line_index, "MAX_COUNTED", 1 << 20)
    _sparse(workspace / "huge.log", 1 << 40)
    page = (await read(ctx, "huge.log")).splitlines()
    assert page[0] == "     1\ta line of text"
    assert page[1000].startswith("  1001\t\x00")
    assert page[1000].endswith("[line cut at 2,000 characters]")
    assert page[-1] == "[line 1,001 of huge.log runs on past its first 0.000976562 GB; use bash past them]"


async def test_a_cancelled_read_stops_its_count(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The count runs in a worker thread, which a cancelled task does not stop by itself.
    monkeypatch.setattr(line_index, "BLOCK", 4096)
    monkeypatch.setattr(line_index, "MAX_COUNTED", 1 << 50)  # only the cancel can end this count
    path = _sparse(workspace / "huge.log", 1 << 40)
    counting, ended = threading.Event(), threading.Event()
    real_scan = line_index.scan

    def scan(*args: object) -> tuple[int, int, bytes]:
        counting.set()
        try:
            return real_scan(*args)  # type: ignore[arg-type]
        finally:
            ended.set()

    monkeypatch.setattr(line_index, "scan", scan)
    executor = LocalExecutor(workspace)
    stat = await executor.stat(path)
    assert stat is not None
    task = asyncio.create_task(line_index.line_start(executor, path, stat, 1005))
    assert await asyncio.to_thread(counting.wait, 60)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await asyncio.to_thread(ended.wait, 60), "the count went on after its read was cancelled"
