"""Lesson 16's build-along track: LSP messages framed, positions in UTF-16, only the new problems.

`make lesson-check N=16` runs these against your copy (`make lesson-start N=16`); each test's first
docstring line is the behaviour it reports.
"""

import asyncio
from pathlib import Path

import pytest

from decode.lsp.diagnostics import Problem, new_problems
from decode.lsp.jsonrpc import FramingError, encode, read_message
from decode.lsp.positions import to_lsp


def reader_of(data: bytes) -> asyncio.StreamReader:
    reader = asyncio.StreamReader()
    reader.feed_data(data)
    reader.feed_eof()
    return reader


async def test_framed_messages_are_read_one_by_one_until_the_end() -> None:
    """Messages framed by Content-Length are read one by one; a clean end of the stream is None."""
    first, second = {"jsonrpc": "2.0", "id": 1, "result": None}, {"jsonrpc": "2.0", "method": "x", "params": {}}
    reader = reader_of(encode(first) + b"Content-Type: application/vscode-jsonrpc\r\n" + encode(second))
    assert await read_message(reader) == first
    assert await read_message(reader) == second
    assert await read_message(reader) is None


async def test_a_broken_frame_is_a_framing_error() -> None:
    """A header without Content-Length, a stream cut inside a body, or a body that is not JSON is an error."""
    for data in (b"X-Other: 1\r\n\r\n{}", b"Content-Length: 10\r\n\r\n{}", b"Content-Length: 2\r\n\r\nno"):
        with pytest.raises(FramingError):
            await read_message(reader_of(data))


def test_a_column_becomes_a_utf16_offset() -> None:
    """Line and column count from 1 in, from 0 out, and a character beyond the BMP counts twice."""
    assert to_lsp("x = 1", 1, 1) == {"line": 0, "character": 0}
    assert to_lsp("s = '𝔘' + y", 3, 11) == {"line": 2, "character": 11}
    with pytest.raises(ValueError, match="count from 1"):
        to_lsp("x", 0, 1)


def test_only_the_problems_an_edit_added_are_new() -> None:
    """After an edit, only the problems that were not there before are new, counted as a multiset."""
    path = Path("a.py")
    old = Problem(path, 3, 1, 1, '"x" is not defined')
    moved = Problem(path, 9, 1, 1, '"x" is not defined')  # the same problem on another line: not new
    added = Problem(path, 4, 5, 1, '"y" is not defined')
    twice = Problem(path, 12, 1, 1, '"x" is not defined')  # a second one: new
    assert new_problems([old], [moved, added, twice]) == [added, twice]
