#!/usr/bin/env bash
# Implement the spec: itertools.groupby for the runs, a small left-to-right parser for decode.
set -euo pipefail
cat > rle.py <<'PY'
"""RLE-H run-length encoding: see SPEC.md."""

from itertools import groupby

ESC = "#"
MAX_RUN = 999


def _literal(c: str, n: int) -> str:
    return (ESC + ESC if c == ESC else c) * n


def encode(text: str) -> str:
    """Return the RLE-H encoding of ``text``."""
    out = []
    for c, group in groupby(text):
        n = sum(1 for _ in group)
        while n >= MAX_RUN:
            out.append(f"{ESC}{MAX_RUN}{ESC}{c}")
            n -= MAX_RUN
        out.append(f"{ESC}{n}{ESC}{c}" if n >= 4 else _literal(c, n))
    return "".join(out)


def decode(data: str) -> str:
    """Return the text that ``data`` (an RLE-H encoding) stands for; ValueError if invalid."""
    out = []
    i = 0
    while i < len(data):
        c = data[i]
        if c != ESC:
            out.append(c)
            i += 1
            continue
        if i + 1 >= len(data):
            raise ValueError(f"'#' at the end (position {i})")
        if data[i + 1] == ESC:
            out.append(ESC)
            i += 2
            continue
        j = i + 1
        while j < len(data) and data[j] in "0123456789":
            j += 1
        digits = data[i + 1 : j]
        if not digits:
            raise ValueError(f"'#' followed by {data[i + 1]!r} at position {i}")
        if digits[0] == "0":
            raise ValueError(f"count with a leading zero at position {i}")
        if j + 1 >= len(data) or data[j] != ESC:
            raise ValueError(f"unterminated run token at position {i}")
        count = int(digits)
        if not 4 <= count <= MAX_RUN:
            raise ValueError(f"run count {count} outside 4..{MAX_RUN}")
        out.append(data[j + 1] * count)
        i = j + 2
    return "".join(out)
PY
python3 -m unittest -q test_rle
