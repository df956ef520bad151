"""Reading a file a repository may have planted: never a wait, never without end, one clear error.

Every file decode reads from a project (settings, `.mcp.json`, agents, skills, memory files,
session logs) can be anything a clone can hold: a symlink to `/dev/zero` (endless), to
`/dev/stdin` or a FIFO (an `open` that waits for a writer for ever), a directory, a gigabyte, or
JSON nested a million levels deep. So a file is opened non-blocking, checked *after* opening to
be a regular file (a link is followed only to one), read up to a cap, decoded strictly and, for
JSON, measured for depth before the parser recurses. Anything else is an `UnreadableFile` whose
text names the file and says what is wrong, for the caller to skip it with one line.

This happens before any trust question: reading is never what a repository is trusted for.
"""

import json
import os
import re
import stat
from collections.abc import Sequence
from itertools import accumulate
from pathlib import Path
from typing import Any

MAX_BYTES = 1 << 20
"""A project file larger than this (1 MiB) is refused: settings, agents and skills are a few KiB."""
MAX_DEPTH = 64
"""JSON arrays and objects nested deeper than this are refused (real configs need four or five levels)."""
_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
_STRUCTURE = re.compile(r'["\\\[\]{}]')
_ESCAPE = re.compile(r"\\.", re.DOTALL)
_STRING = re.compile(r'"[^"]*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class UnreadableFile(ValueError):
    """A file that cannot be used at all; `str()` is one line naming it, its line when known, and why."""

    def __init__(self, path: Path, message: str, line: int | None = None) -> None:
        super().__init__(f"{path}:{line}: {message}" if line is not None else f"{path}: {message}")
        self.path, self.message, self.line = path, message, line


def open_regular(path: Path, *, what: str = "a file") -> int:
    """A descriptor (blocking again) for the regular file at `path`; `FileNotFoundError` when there is
    none, `UnreadableFile` for a directory, a FIFO, a socket, a device or an error opening it.

    `O_NONBLOCK` makes opening a FIFO with no writer return at once instead of waiting for one; the
    kind is checked on the open descriptor, so a file swapped after a look is caught as well.
    """
    try:
        fd = os.open(path, _FLAGS)
    except (FileNotFoundError, NotADirectoryError):
        raise FileNotFoundError(path) from None
    except OSError as exc:
        raise UnreadableFile(path, f"cannot be read ({exc.strerror or exc})") from None
    try:
        kind = os.fstat(fd).st_mode
        if stat.S_ISDIR(kind):
            raise UnreadableFile(path, f"is a directory, not {what}")
        if not stat.S_ISREG(kind):
            raise UnreadableFile(path, "is not a regular file")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bytes(path: Path, *, limit: int = MAX_BYTES, what: str = "a file") -> bytes | None:
    """The bytes of the regular file at `path`, None when there is none; `UnreadableFile` when it is
    not a regular file, cannot be read, or holds more than `limit` bytes (at most `limit + 1` are read)."""
    try:
        fd = open_regular(path, what=what)
    except FileNotFoundError:
        return None
    chunks: list[bytes] = []
    size = 0
    try:
        while size <= limit and (chunk := os.read(fd, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise UnreadableFile(path, f"cannot be read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    if size > limit:
        raise UnreadableFile(path, f"is larger than {_size(limit)}")
    return b"".join(chunks)


def read_text(path: Path, *, limit: int = MAX_BYTES, what: str = "a file") -> str | None:
    """`read_bytes` decoded: UTF-8 with or without a BOM (and UTF-16/32 as JSON detects them), strictly.

    Bytes that are not UTF-8 are an `UnreadableFile` saying on which line, never a silent `\\ufffd`.
    """
    data = read_bytes(path, limit=limit, what=what)
    if data is None:
        return None
    encoding = json.detect_encoding(data)
    try:
        return data.decode(encoding).removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1 if encoding.startswith("utf-8") else None
        raise UnreadableFile(path, f"is not UTF-8 text ({exc.reason} at byte {exc.start})", line) from None


def parse_json(text: str, path: Path, *, depth: int = MAX_DEPTH, **options: Any) -> Any:
    """The JSON value of `text` (read from `path`); `UnreadableFile` with the line when it is not JSON
    or nests deeper than `depth` (checked first: the parser itself would raise `RecursionError`)."""
    if (deep_at := too_deep(text, depth)) is not None:
        raise UnreadableFile(path, f"nested more than {depth} levels deep", line_of(text, deep_at))
    try:
        return json.loads(text, **options)
    except json.JSONDecodeError as exc:
        raise UnreadableFile(path, f"not valid JSON ({exc.msg})", exc.lineno) from None
    except (ValueError, RecursionError) as exc:  # e.g. an integer of more than 4300 digits
        if isinstance(exc, UnreadableFile):
            raise
        raise UnreadableFile(path, f"not valid JSON ({exc})") from None


def read_json(path: Path, *, limit: int = MAX_BYTES, depth: int = MAX_DEPTH, what: str = "a file") -> Any:
    """`read_text` then `parse_json`: the file's JSON value, None when there is no file."""
    text = read_text(path, limit=limit, what=what)
    return None if text is None else parse_json(text, path, depth=depth)


def too_deep(text: str, depth: int = MAX_DEPTH) -> int | None:
    """Where JSON arrays and objects first nest deeper than `depth` (None: they never do).

    Nothing here recurses. The depth is measured at C speed on the brackets left once escapes and
    strings are taken out; only a text found too deep is walked again to find where.
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", _ESCAPE.sub("", text)))
    if max(accumulate(map(_STEP.__getitem__, brackets)), default=0) <= depth:
        return None
    level, in_string, skip_to = 0, False, -1
    for match in _STRUCTURE.finditer(text):
        at, char = match.start(), match.group()
        if at < skip_to:
            continue  # the character after a backslash in a string
        if in_string:
            if char == "\\":
                skip_to = at + 2
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            level += 1
            if level > depth:
                return at
        elif char in "]}":
            level -= 1
    return None


def line_of(text: str, offset: int) -> int | None:
    """The 1-based line of a character offset (None when the text was not found)."""
    return text.count("\n", 0, offset) + 1 if offset >= 0 else None


def beyond_cap[T](items: Sequence[T], cap: int, where: Path, what: str) -> tuple[Sequence[T], str | None]:
    """The first `cap` of `items`, and one short line naming the excess (None when there is none).

    A repository can hold 30,000 servers or agents: they are not all read, nor all named.
    """
    if len(items) <= cap:
        return items, None
    return items[:cap], f"{where}: {len(items) - cap:,} more {what} than the {cap:,} read; they are left out"


def _size(limit: int) -> str:
    return f"{limit // (1 << 20)} MiB" if limit % (1 << 20) == 0 else f"{limit:,} bytes"
