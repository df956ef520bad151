"""The `read` tool: a text file's lines, numbered like `cat -n`, a page at a time.

A page is at most 2,000 lines and 50 KB; a note says how to ask for the next one. Lines longer
than 2,000 characters are cut. Memory stays bounded whatever the file: lines are read one at a
time, each at most a fixed number of bytes, so the first page of a 200 MB log (or of a 200 MB
file with no newline at all) costs what a small file costs.

Binary files and images are refused; text that is not valid UTF-8 is shown with replacement
characters rather than failing. Reading records the file in the Read Ledger, which `edit` checks.
"""

import difflib
from typing import BinaryIO

from pydantic_ai import ModelRetry, RunContext

from decode.agent.deps import AgentDeps
from decode.tools.paths import display_path, resolve_path
from decode.tools.text import SNIFF_BYTES, binary_kind

MAX_LINES = 2000
MAX_PAGE_CHARS = 50_000
MAX_LINE_CHARS = 2000
# A line is read at most this many bytes at a time (4 bytes per character, the UTF-8 maximum).
MAX_LINE_BYTES = MAX_LINE_CHARS * 4


def _next_line(handle: BinaryIO) -> tuple[bytes, int] | None:
    """The next line (at most `MAX_LINE_BYTES` of it) and how many bytes of it were skipped."""
    raw = handle.readline(MAX_LINE_BYTES)
    if not raw:
        return None
    skipped = 0
    if not raw.endswith(b"\n"):
        while chunk := handle.readline(MAX_LINE_BYTES):  # the rest of an over-long line
            skipped += len(chunk)
            if chunk.endswith(b"\n"):
                skipped -= 1
                break
    return raw.rstrip(b"\n"), skipped


def _show(number: int, raw: bytes, skipped: int) -> str:
    text = raw.decode("utf-8", errors="replace").removesuffix("\r")
    if number == 1:
        text = text.removeprefix("\ufeff")
    if len(text) > MAX_LINE_CHARS or skipped:
        text = f"{text[:MAX_LINE_CHARS]}… [line cut at {MAX_LINE_CHARS:,} characters]"
    return f"{number:>6}\t{text}"


def missing_file_message(ctx: RunContext[AgentDeps], path: str) -> str:
    """`path` does not exist; name the closest files in its directory, if any."""
    executor = ctx.deps.executor
    target = executor.workspace / path
    parent = executor.realpath(target.parent)
    hint = ""
    if parent.is_relative_to(executor.workspace) and (stat := executor.stat(parent)) and stat.is_dir:
        names = [entry.name for entry in executor.list_dir(parent)]
        close = difflib.get_close_matches(target.name, names, n=3, cutoff=0.6)
        if close:
            hint = " Did you mean: " + ", ".join(display_path(executor, parent / name) for name in close) + "?"
    return f"{path} does not exist.{hint} Use glob to find files."


def read(ctx: RunContext[AgentDeps], path: str, offset: int = 1, limit: int = MAX_LINES) -> str:
    """Read a text file. Lines come numbered like `cat -n` (number, tab, text).

    At most 2000 lines or 50 KB per call; a note at the end tells how to continue.

    Args:
        path: File path, relative to the working directory.
        offset: First line to show (1-based).
        limit: Number of lines to show (at most 2000).
    """
    executor = ctx.deps.executor
    real = resolve_path(executor, path)
    stat = executor.stat(real)
    if stat is None:
        raise ModelRetry(missing_file_message(ctx, path))
    if stat.is_dir:
        raise ModelRetry(f"{path} is a directory; use glob to list its files.")
    if offset < 1 or limit < 1:
        raise ModelRetry("offset and limit must be at least 1.")
    limit = min(limit, MAX_LINES)
    shown = display_path(executor, real)
    try:
        with executor.open_read(real) as handle:
            head = handle.read(SNIFF_BYTES)
            if (kind := binary_kind(real, head)) is not None:
                return f"{shown} is not a text file ({kind}, {stat.size:,} bytes); read shows text files only."
            handle.seek(0)
            lines: list[str] = []
            size = 0
            number = 0
            more = False
            while (line := _next_line(handle)) is not None:
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
        return f"Could not read {shown}: {exc.strerror or exc}."
    ctx.deps.read_ledger.record(real, stat)
    if not lines:
        if number == 0:
            return f"{shown} is empty."
        raise ModelRetry(f"offset {offset} is past the end of {shown}, which has {number:,} lines.")
    first, last = offset, offset + len(lines) - 1
    if more:
        lines.append(f"\n[lines {first}-{last} of {shown}; more follow: read with offset={last + 1} to continue]")
    return "\n".join(lines)
