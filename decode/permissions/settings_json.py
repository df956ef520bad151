"""Reading one settings file safely: bytes to a JSON value, or `BrokenFile` saying where and why.

A settings file may come from a repository, so reading it never blocks or runs without end: a
FIFO, a device or a directory is refused before reading, at most `MAX_BYTES` are read, nesting
deeper than `MAX_DEPTH` is refused before the parser recurses, and a deny or ask list written twice
in one object (`"deny"` twice: JSON keeps the last) is an error rather than a silently lost rule.
"""

import json
import os
import re
import stat
from itertools import accumulate
from pathlib import Path
from typing import Any

MAX_BYTES = 1 << 20
"""A settings file larger than this (1 MiB) is broken: real ones are a few hundred bytes."""
MAX_DEPTH = 64
"""Arrays and objects nested deeper than this make a file broken (settings need three levels)."""
_STRUCTURE = re.compile(r'["\\\[\]{}]')
_ESCAPE = re.compile(r"\\.", re.DOTALL)
_STRING = re.compile(r'"[^"]*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class BrokenFile(Exception):
    """The file cannot be used at all, so what it denies is unknown."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line, self.message = line, message


def read_text(path: Path) -> str | None:
    """The text of a settings file, None when there is none; `BrokenFile` when it cannot be read.

    Never blocks or reads without end: a FIFO, a device (a link to /dev/zero) or a directory is
    refused before reading, and at most `MAX_BYTES` are read. UTF-8 with or without a BOM is
    accepted, and UTF-16/32 as JSON detects them.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
    try:
        fd = os.open(path, flags)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise BrokenFile(None, f"cannot be read ({exc.strerror or exc})") from None
    try:
        kind = os.fstat(fd).st_mode
        if stat.S_ISDIR(kind):
            raise BrokenFile(None, "is a directory, not a settings file")
        if not stat.S_ISREG(kind):
            raise BrokenFile(None, "is not a regular file")
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_BYTES and (chunk := os.read(fd, MAX_BYTES + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise BrokenFile(None, f"cannot be read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > MAX_BYTES:
        raise BrokenFile(None, f"is larger than {MAX_BYTES // (1 << 20)} MiB")
    encoding = json.detect_encoding(data)
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1 if encoding.startswith("utf-8") else None
        raise BrokenFile(line, f"is not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def parse_json(text: str) -> Any:
    """The JSON value of a settings file's text (empty text is `{}`); `BrokenFile` when it is not JSON."""
    if not text.strip():
        return {}
    if (deep_at := too_deep(text)) is not None:
        raise BrokenFile(line_of(text, deep_at), f"nested more than {MAX_DEPTH} levels deep")

    def unique_restrictions(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        # `{"deny": ["Bash(rm:*)"], "deny": []}`: JSON keeps the last, so a deny would vanish unseen.
        obj = dict(pairs)
        if len(obj) < len(pairs):
            keys = [key for key, _ in pairs]
            for key in ("permissions", "deny", "ask"):
                if keys.count(key) > 1:
                    second = text.find(f'"{key}"', text.find(f'"{key}"') + 1)
                    raise BrokenFile(line_of(text, second), f'"{key}" is written twice in one object: which one holds?')
        return obj

    try:
        return json.loads(text, object_pairs_hook=unique_restrictions)
    except json.JSONDecodeError as exc:
        raise BrokenFile(exc.lineno, f"not valid JSON ({exc.msg})") from None
    except (ValueError, RecursionError) as exc:  # e.g. an integer of more than 4300 digits
        raise BrokenFile(None, f"not valid JSON ({exc})") from None


def too_deep(text: str) -> int | None:
    """Where arrays and objects first nest deeper than `MAX_DEPTH` (None: they never do).

    Nothing here recurses. The depth is measured at C speed on the brackets left once escapes and
    strings are taken out; only a file found too deep is walked again to find where.
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", _ESCAPE.sub("", text)))
    if max(accumulate(map(_STEP.__getitem__, brackets)), default=0) <= MAX_DEPTH:
        return None
    depth, in_string, skip_to = 0, False, -1
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
            depth += 1
            if depth > MAX_DEPTH:
                return at
        elif char in "]}":
            depth -= 1
    return None


def find_entry(text: str, entry: object, start: int) -> int:
    """Where an entry of a list is written, searching from `start` (which it returns if not found)."""
    if isinstance(entry, list | dict):
        return start  # not spelled out again: its spelling is not unique, and could be deep
    for spelling in (json.dumps(entry, ensure_ascii=False), json.dumps(entry)):
        if (found := text.find(spelling, start)) >= 0:
            return found
    return start


def line_of(text: str, offset: int) -> int | None:
    """The 1-based line of a character offset (None when the text was not found)."""
    return text.count("\n", 0, offset) + 1 if offset >= 0 else None
