"""Where line N of a file starts, without reading the lines before it one by one.

`read` at an offset needs the byte where that line starts. Counting newlines a large block at a
time (`bytes.count`, in C) is ~100x faster than stepping through lines, and what was counted is
remembered: a Line Index holds, every `BLOCK` bytes, how many lines came before, so the next page
of the same file starts from the nearest mark instead of the top. An index belongs to one version
of one file: it is found again only while the file's size and modification time are the same,
and its marks are used only while the text read at each is the text counted there (a file copied
back with its old size and mtime is counted again).

On this machine the count runs in one worker thread, through one descriptor into one reused
buffer: no copy per block and no hop per block, so a count costs what `bytes.count` does (about
1.5 GB/s: the floor without compiled code, ADR-0110). A large file's page 1 starts a count of the
rest in the background (`count_ahead.py`), so a later page deep in it finds its marks.
"""

import asyncio
import bisect
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from io import FileIO
from pathlib import Path

from decode.entities.executor import CommandExecutor, FileStat
from decode.processes.local import LocalExecutor, open_regular

BLOCK = 1024 * 1024  # bytes counted per executor read; an index holds one mark per block
STEP = 64 * 1024  # inside a block, the line is found a step at a time (`count` takes a range: no copies)
KEPT = 8  # files whose index is remembered (the most recently used)
HEAD = 64  # bytes of each block kept with its mark: a file rewritten with its size and mtime kept shows here
MAX_COUNTED = 4 * 1024**3  # lines are counted in a file's first 4 GB only (~3 s); a line past them is refused


class PastTheCount(ValueError):
    """The line lies past the part of a file whose lines are counted (`MAX_COUNTED`)."""


@dataclass
class LineIndex:
    """Marks `(byte, newlines before it)`, one every `BLOCK` bytes, as far as the file was counted."""

    marks: list[tuple[int, int]] = field(default_factory=lambda: [(0, 0)])
    heads: dict[int, bytes] = field(default_factory=dict)
    """The first `HEAD` bytes read at each mark (`cp -p`, `tar x` or `rsync -t` keep size and mtime)."""
    ahead: "Future[None] | None" = None
    """A count of this file running in the background (`count_ahead.py`): readers wait for it."""
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)
    """Counts run in worker threads, two reads of one file at once too: one marks at a time."""

    def holds(self, start: int, block: bytes) -> bool:
        """Whether `block`, read at mark `start`, is what this index counted there."""
        return self.heads.setdefault(start, block[:HEAD]) == block[:HEAD]

    def clear(self) -> None:
        with self.lock:
            self.marks[:], self.heads = [(0, 0)], {}

    def mark(self, start: int, before: int) -> None:
        """Add a mark (counting back from the end leaves marks past a gap: they go in order)."""
        with self.lock:  # found and inserted in one step: another thread's insert between would misplace it
            at = bisect.bisect_left(self.marks, start, key=lambda mark: mark[0])
            if at == len(self.marks) or self.marks[at][0] != start:
                self.marks.insert(at, (start, before))

    def reached(self) -> tuple[int, int]:
        """The last mark of those counted from the top without a gap."""
        at = 0
        while at + 1 < len(self.marks) and self.marks[at + 1][0] == self.marks[at][0] + BLOCK:
            at += 1
        return self.marks[at]

    def counted(self, size: int) -> bool:
        """Whether every mark of a file of `size` bytes is made."""
        return len(self.marks) > size // BLOCK

    def before(self, newlines: int) -> tuple[int, int]:
        """The last mark with fewer than `newlines` newlines before it (a mark may be mid-line)."""
        return self.marks[max(bisect.bisect_left(self.marks, newlines, key=lambda mark: mark[1]) - 1, 0)]


_INDEXES: OrderedDict[tuple[str, str, int, int], LineIndex] = OrderedDict()


def index_for(executor: CommandExecutor, path: Path, stat: FileStat) -> LineIndex:
    key = (str(executor.workspace), str(path), stat.size, stat.mtime_ns)
    index = _INDEXES.pop(key, None) or LineIndex()
    _INDEXES[key] = index  # most recently used last
    while len(_INDEXES) > KEPT:
        _INDEXES.popitem(last=False)
    return index


async def line_start(executor: CommandExecutor, path: Path, stat: FileStat, line: int) -> tuple[int, int]:
    """Where reading `path` finds line `line` (1-based), and that line's number.

    When the file has fewer lines: where reading finds its last line (or nothing, after a final
    newline), and that line's number, so a reader counting from there ends at the file's count.
    """
    wanted = line - 1  # the newlines before the line
    if wanted < 1:
        return 0, 1
    index = index_for(executor, path, stat)
    if (ahead := index.ahead) is not None and index.reached()[1] < wanted:
        await asyncio.wrap_future(ahead)  # a count ahead of the reader, not past its line yet: let it end
    counting = ahead is not None and not ahead.done()  # past the line: its marks are there, it goes on
    start, before = index.before(wanted)
    if isinstance(executor, LocalExecutor):
        from decode.tools.line_tail import from_the_end  # (it imports this module)

        # (never beside a count still marking: only one thread marks an index at a time)
        found = None if counting else await from_the_end(path, stat, index, wanted)
        start, before, block = found or await _scan_in_thread(path, index, start, before, wanted)
    else:
        start, before, block = await _scan_through(executor, path, index, start, before, wanted)
    if before + block.count(b"\n") >= wanted:  # the line starts inside this block
        return start + _after_newline(block, wanted - before), line
    return await _last_line(executor, path, start, block, before)


async def _scan_in_thread(path: Path, index: LineIndex, start: int, before: int, wanted: int) -> tuple[int, int, bytes]:
    """`scan` in a worker thread that stops at the next block when the read is cancelled."""
    cancelled = threading.Event()
    try:
        return await asyncio.to_thread(scan, path, index, start, before, wanted, cancelled.is_set)
    except asyncio.CancelledError:
        cancelled.set()  # (a thread cannot be cancelled: it is asked to stop)
        raise


async def _scan_through(
    executor: CommandExecutor, path: Path, index: LineIndex, start: int, before: int, wanted: int
) -> tuple[int, int, bytes]:
    """Count blocks from a mark to the one holding newline `wanted` (or the last); marks on the way."""
    while True:
        block = await executor.read_bytes(path, start, BLOCK)
        if not index.holds(start, block):  # another text at this mark: the file changed, count again
            index.clear()
            start, before = 0, 0
            continue
        found = block.count(b"\n")
        if before + found >= wanted or len(block) < BLOCK:
            return start, before, block
        start, before = start + len(block), before + found
        index.mark(start, before)
        _within_the_count(start, wanted)


def counted_part() -> str:
    """The part of a file whose lines are counted, in words."""
    return f"its first {MAX_COUNTED / 1024**3:g} GB"


def _within_the_count(start: int, wanted: int) -> None:
    if start >= MAX_COUNTED:
        raise PastTheCount(f"line {wanted + 1:,} lies past {counted_part()}, where lines are counted")


def scan(
    path: Path, index: LineIndex, start: int, before: int, wanted: int, stop: Callable[[], bool] = lambda: False
) -> tuple[int, int, bytes]:
    """`_scan_through` with direct I/O, in a worker thread; it also ends at a block after which `stop()`."""
    buffer = bytearray(BLOCK)
    view = memoryview(buffer)
    with FileIO(open_regular(path), closefd=True) as handle:  # a FIFO swapped in is refused, not waited on
        handle.seek(start)
        while True:
            size = _fill(handle, view)
            if not index.holds(start, bytes(view[: min(size, HEAD)])):
                index.clear()
                start, before = handle.seek(0), 0
                continue
            found = buffer.count(b"\n", 0, size)
            if before + found >= wanted or size < BLOCK:
                return start, before, bytes(view[:size])
            start, before = start + size, before + found
            index.mark(start, before)
            _within_the_count(start, wanted)
            if stop():
                return start, before, b""


def _fill(handle: FileIO, view: memoryview) -> int:
    """Read into `view` until it is full or the file ends; how many bytes were read."""
    size = 0
    while size < len(view) and (got := handle.readinto(view[size:])):
        size += got
    return size


def _after_newline(block: bytes, count: int) -> int:
    """Where the text after the `count`-th newline of `block` starts (it has at least that many)."""
    at = 0
    while (found := block.count(b"\n", at, at + STEP)) < count:
        count, at = count - found, at + STEP
    rest = block[at : at + STEP].split(b"\n", count)[-1]
    return at + min(STEP, len(block) - at) - len(rest)


async def _last_line(executor: CommandExecutor, path: Path, start: int, block: bytes, before: int) -> tuple[int, int]:
    """The file ended (its last block read from `start`, `before` newlines ahead of it)."""
    if (last := block.rfind(b"\n")) != -1:
        return start + last + 1, before + block.count(b"\n") + 1
    if block or start == 0:  # the last line runs on to the end: reading from here finds its rest
        return start, before + 1
    # Nothing after `start`: a final newline means no line is left; otherwise the last one ends here.
    ends = await executor.read_bytes(path, start - 1, 1) == b"\n"
    return (start if ends else start - 1), before + 1
