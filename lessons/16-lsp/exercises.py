"""Lesson 16's exercises: a Content-Length reader, a column in UTF-16, and the errors an edit introduced."""

import json
from collections.abc import Callable

from course import Verdict, check

# --- exercise 1: read LSP frames ------------------------------------------------------------------


def _frame(message: dict) -> bytes:
    body = json.dumps(message, ensure_ascii=False).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


ReadFrames = Callable[[bytes], tuple[list[dict], bytes]]


def check_read_frames(read_frames: ReadFrames) -> Verdict:
    """`read_frames(buffer)`: the whole messages at the start of `buffer`, and the bytes left over (a message
    not complete yet stays in them, whole)."""

    def test() -> None:
        one, two = {"id": 1, "result": None}, {"method": "n", "params": {"text": "déjà 😀"}}
        got = read_frames(_frame(one) + _frame(two))
        assert got == ([one, two], b""), f"two whole messages: expected ([{one}, {two}], b''), got {got!r}"
        framed = _frame(two)
        for cut in (10, len(framed) - 3):
            got = read_frames(framed[:cut])
            where = "header" if cut == 10 else "body"
            assert got == ([], framed[:cut]), f"a message cut in its {where}: nothing yet, all kept; got {got!r}"
        got = read_frames(_frame(one) + framed[:30])
        assert got == ([one], framed[:30]), f"one whole message, then the start of another: got {got!r}"
        got = read_frames(b"Content-Type: x\r\nContent-Length: 2\r\n\r\n{}")
        assert got == ([{}], b""), f"another header before Content-Length is fine: got {got!r}"

    return check("frames read by their byte length, a partial message kept for later", test)


# --- exercise 2: a column in UTF-16 --------------------------------------------------------------


def check_to_utf16(to_utf16: Callable[[str, int], int]) -> Verdict:
    """`to_utf16(line, column)`: the 0-based UTF-16 offset LSP wants for the 1-based code-point `column` of `line`."""

    def test() -> None:
        cases = [
            ("count = size(3)", 9, 8),
            ("café = size(3)", 8, 7),  # é is one UTF-16 unit (in the Basic Multilingual Plane)
            ('s = "😀" + size(3)', 12, 12),  # 😀 is two: everything after it is one further
            ("𝔘𝔘x", 3, 4),
            ("ab", 3, 2),  # just past the end: the end
        ]
        for line, column, expected in cases:
            got = to_utf16(line, column)
            assert got == expected, f"to_utf16({line!r}, {column}) should be {expected}, got {got!r}"

    return check("1-based code-point columns as 0-based UTF-16 offsets", test)


# --- exercise 3: which errors are new ------------------------------------------------------------

Error = tuple[str, int, str]  # (file, line, message)


def check_new_errors(new_errors: Callable[[list[Error], list[Error]], list[Error]]) -> Verdict:
    """`new_errors(before, after)`: the errors of `after` that `before` did not have, known by file and message
    (not line: lines move when an edit adds some above)."""

    def test() -> None:
        moved = new_errors([("a.py", 3, "`x` is not defined")], [("a.py", 9, "`x` is not defined")])
        assert moved == [], f"an error that only moved down is not new: got {moved!r}"
        twice = new_errors(
            [("a.py", 3, "`x` is not defined")], [("a.py", 3, "`x` is not defined"), ("a.py", 7, "`x` is not defined")]
        )
        assert twice == [("a.py", 7, "`x` is not defined")], f"a second copy of an old error is new: got {twice!r}"
        elsewhere = new_errors([("a.py", 1, "bad")], [("b.py", 1, "bad")])
        assert elsewhere == [("b.py", 1, "bad")], f"the same message in another file is new: got {elsewhere!r}"
        assert new_errors([], []) == [], "no errors before or after: none new"

    return check("new errors counted as a multiset of (file, message)", test)
