"""Reading one settings file safely: bytes to a JSON value, or `BrokenFile` saying where and why.

A settings file may come from a repository, so reading it never blocks or runs without end: a
FIFO, a device or a directory is refused before reading, at most `MAX_BYTES` are read, nesting
deeper than `MAX_DEPTH` is refused before the parser recurses, and a deny or ask list written twice
in one object (`"deny"` twice: JSON keeps the last) is an error rather than a silently lost rule.
"""

import json
from pathlib import Path
from typing import Any

from decode.config import safe_read
from decode.config.safe_read import MAX_BYTES, MAX_DEPTH, UnreadableFile, line_of, too_deep

__all__ = ["MAX_BYTES", "MAX_DEPTH", "BrokenFile", "find_entry", "line_of", "parse_json", "read_text", "too_deep"]


class BrokenFile(Exception):
    """The file cannot be used at all, so what it denies is unknown."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line, self.message = line, message


def read_text(path: Path) -> str | None:
    """The text of a settings file, None when there is none; `BrokenFile` when it cannot be read.

    `decode.config.safe_read` reads it: never blocks or reads without end (a FIFO, a device or a
    directory is refused, at most `MAX_BYTES` are read); UTF-8 with or without a BOM, or UTF-16/32.
    """
    try:
        return safe_read.read_text(path, limit=MAX_BYTES, what="a settings file")
    except UnreadableFile as exc:
        raise BrokenFile(exc.line, exc.message) from None


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


def find_entry(text: str, entry: object, start: int) -> int:
    """Where an entry of a list is written, searching from `start` (which it returns if not found)."""
    if isinstance(entry, list | dict):
        return start  # not spelled out again: its spelling is not unique, and could be deep
    for spelling in (json.dumps(entry, ensure_ascii=False), json.dumps(entry)):
        if (found := text.find(spelling, start)) >= 0:
            return found
    return start
