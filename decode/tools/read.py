"""The `read` tool: a text file's lines, numbered like `cat -n`, a page at a time.

A page is at most 2,000 lines and 50 KB; a note says how to ask for the next one. Lines longer
than 2,000 characters are cut. Memory stays bounded whatever the file: lines are read one at a
time, each at most a fixed number of bytes, so the first page of a 200 MB log (or of a 200 MB
file with no newline at all) costs what a small file costs. A page further on starts where its
first line does: the lines before it are counted a block at a time and the count is remembered
(`line_index.py`), so any page of a 200 MB log costs about what the first does; page 1 of a large
file starts that count in the background (`count_ahead.py`). Lines are counted in a file's first
4 GB only (`MAX_COUNTED`): a file sparse-extended to a terabyte would take minutes, so a line past
them is refused and an over-long line is skipped only that far.

A PNG, JPEG, GIF or WebP file (by its first bytes) goes to the model as an image (`images.py`).
Other binary files, directories and anything that is not a regular file (a FIFO or a device
would block or never end) are refused before they are opened, as an answer the model reads
(`paths.py`); text that is not valid UTF-8 is shown with replacement characters rather than
failing. Reading records the file in the Read Ledger, which `edit` checks. `read_page` does it all
from the deps alone: the tool calls it, and so does the REPL for a file the user mentions (`@path`).
"""

import difflib
from pathlib import Path

from pydantic_ai import ModelRetry, RunContext
from pydantic_ai.messages import BinaryImage

from decode.entities.deps import AgentDeps
from decode.entities.executor import CommandExecutor, EntryKind
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits
from decode.tools import line_index
from decode.tools.count_ahead import count_ahead
from decode.tools.harness_files import is_harness_path, locate
from decode.tools.images import read_image
from decode.tools.line_index import PastTheCount, line_start
from decode.tools.paths import Refusal, describe_os_error, display_path, stat_path
from decode.tools.text import SNIFF_BYTES, binary_kind

MAX_LINES = 2000
MAX_PAGE_CHARS = 50_000
MAX_LINE_CHARS = 2000
# A line is kept up to this many bytes (4 bytes per character, the UTF-8 maximum).
MAX_LINE_BYTES = MAX_LINE_CHARS * 4
READ_CHUNK = 256 * 1024  # bytes asked of the executor at a time


class LineReader:
    """A file's lines, read through the executor a chunk at a time, so memory stays bounded.

    `next()` gives each line without its newline (at most `MAX_LINE_BYTES` of it) and how many
    bytes of an over-long line were skipped.
    """

    def __init__(self, executor: CommandExecutor, path: Path, start: int = 0) -> None:
        self.executor, self.path = executor, path
        self.buffer = b""
        self.at = 0  # where the unread part of `buffer` starts
        self.offset = start  # where the next chunk starts in the file
        self.eof = False
        self.past_count = False  # an over-long line ran past the counted part: nothing more is read

    async def _fill(self) -> None:
        chunk = await self.executor.read_bytes(self.path, self.offset, READ_CHUNK)
        self.offset += len(chunk)
        self.eof = len(chunk) < READ_CHUNK
        self.buffer = self.buffer[self.at :] + chunk
        self.at = 0

    async def next(self) -> tuple[bytes, int] | None:
        while True:
            end = self.buffer.find(b"\n", self.at, self.at + MAX_LINE_BYTES + 1)
            if end != -1:
                line, self.at = self.buffer[self.at : end], end + 1
                return line, 0
            if len(self.buffer) - self.at > MAX_LINE_BYTES:
                line = self.buffer[self.at : self.at + MAX_LINE_BYTES]
                self.at += MAX_LINE_BYTES
                return line, await self._skip_rest()
            if self.eof:
                if self.at == len(self.buffer):
                    return None
                line, self.at = self.buffer[self.at :], len(self.buffer)
                return line, 0
            await self._fill()

    async def _skip_rest(self) -> int:
        """Skip to the end of an over-long line; the number of bytes skipped."""
        skipped = 0
        while True:
            end = self.buffer.find(b"\n", self.at)
            if end != -1:
                skipped += end - self.at
                self.at = end + 1
                return skipped
            skipped += len(self.buffer) - self.at
            self.buffer, self.at = b"", 0
            if self.eof:
                return skipped
            if self.offset >= line_index.MAX_COUNTED:  # a sparse terabyte would take hours to skip
                self.eof = self.past_count = True
                return skipped
            await self._fill()


def _show(number: int, raw: bytes, skipped: int) -> str:
    text = raw.decode("utf-8", errors="replace").removesuffix("\r")
    if number == 1:
        text = text.removeprefix("\ufeff")
    if len(text) > MAX_LINE_CHARS or skipped:
        text = f"{text[:MAX_LINE_CHARS]}… [line cut at {MAX_LINE_CHARS:,} characters]"
    return f"{number:>6}\t{text}"


async def missing_file_message(deps: AgentDeps, path: str) -> str:
    """`path` does not exist; name the closest files in its directory, if any."""
    executor = deps.executor
    if is_harness_path(path):
        return f"{path} does not exist: the harness keeps no such file."
    target = executor.workspace / path
    hint = ""
    try:
        parent = await executor.realpath(target.parent)
        if parent.is_relative_to(executor.workspace) and (stat := await executor.stat(parent)) and stat.is_dir:
            names = [entry.name for entry in await executor.list_dir(parent)]
            close = difflib.get_close_matches(target.name, names, n=3, cutoff=0.6)
            if close:
                hint = " Did you mean: " + ", ".join(display_path(executor, parent / name) for name in close) + "?"
    except (OSError, ValueError):  # an unreadable folder: no hint, the message stands
        pass
    return f"{path} does not exist.{hint} Use glob to find files."


async def read(
    ctx: RunContext[AgentDeps], path: str, offset: int = 1, limit: int = MAX_LINES
) -> str | list[str | BinaryImage]:
    """Read a text file. Lines come numbered like `cat -n` (number, tab, text).

    At most 2000 lines or 50 KB per call; a note at the end tells how to continue.
    A PNG, JPEG, GIF or WebP image is shown to you as an image.

    Args:
        path: File path, relative to the working directory.
        offset: First line to show (1-based).
        limit: Number of lines to show (at most 2000).
    """
    if (image := await read_image(ctx.deps, path, ctx.model)) is not None:
        return image
    return await read_page(ctx.deps, path, offset, limit)


async def read_page(deps: AgentDeps, path: str, offset: int = 1, limit: int = MAX_LINES) -> str:
    """What `read` answers, for anyone holding the deps: the tool, and a file the user attaches with `@path`."""
    executor, real, shown = await locate(deps, path)
    stat = await stat_path(executor, real, shown)
    if stat is None:
        raise Refusal(await missing_file_message(deps, path))
    if stat.is_dir:
        raise Refusal(f"{path} is a directory; use glob to list its files.")
    if stat.kind is EntryKind.OTHER:  # a FIFO or a device would block or never end
        raise Refusal(f"{path} is not a regular file (a pipe, socket or device); read shows regular files only.")
    if offset < 1 or limit < 1:
        raise ModelRetry("offset and limit must be at least 1.")
    limit = min(limit, MAX_LINES)
    lines: list[str] = []
    number = 0
    more = False
    try:
        head = await executor.read_bytes(real, 0, SNIFF_BYTES)
        if (kind := binary_kind(real, head)) is not None:  # said plainly: what the file is, not a failure
            return f"{shown} is not a text file ({kind}, {stat.size:,} bytes); read shows text files only."
        start, first = await line_start(executor, real, stat, offset)  # the lines before, counted in blocks
        reader = LineReader(executor, real, start)
        number = first - 1
        size = 0
        while (line := await reader.next()) is not None:
            number += 1
            if number < offset:
                continue
            if len(lines) == limit:
                more = True
                break
            text = _show(number, *line)
            if lines and size + len(text) + 1 > MAX_PAGE_CHARS:
                more = True
                break
            lines.append(text)
            size += len(text) + 1
    except OSError as exc:
        raise Refusal(f"Could not read {shown}: {describe_os_error(exc)}.") from None
    except PastTheCount as exc:  # counting a sparse terabyte would take minutes
        raise Refusal(
            f"{shown} has {stat.size:,} bytes and {exc}; use bash past them (`tail -c`, `grep -n`)."
        ) from None
    deps.read_ledger.record(real, stat)
    if more:  # a later page of a large file will need its lines counted: start now, in the background
        count_ahead(executor, real, stat)
    if not lines:
        if number == 0:
            return f"{shown} is empty."
        raise Refusal(f"offset {offset} is past the end of {shown}, which has {number:,} lines.")
    first, last = offset, offset + len(lines) - 1
    if reader.past_count:
        lines.append(f"\n[line {last:,} of {shown} runs on past {line_index.counted_part()}; use bash past them]")
    elif more:
        lines.append(f"\n[lines {first}-{last} of {shown}; more follow: read with offset={last + 1} to continue]")
    return "\n".join(lines)


READ = ToolSpec("read", read, ToolTraits(ToolKind.READ_ONLY, rules=("Read",), path="path"))
