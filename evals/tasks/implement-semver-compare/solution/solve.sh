#!/usr/bin/env bash
# One anchored regular expression for the syntax ([0-9] rather than \d, which also matches
# non-ASCII digits; fullmatch rather than $, which also matches before a final newline), then a
# sort key: (major, minor, patch, no-pre-release?, identifiers as (is-text, number, text)).
set -euo pipefail
cat > semver.py <<'PY'
"""Semantic Versioning 2.0.0 precedence (see SPEC.md)."""

import re

_NUM = r"0|[1-9][0-9]*"
_PRE_ID = rf"(?:{_NUM}|[0-9]*[A-Za-z-][0-9A-Za-z-]*)"
_VERSION = re.compile(
    rf"(?P<major>{_NUM})\.(?P<minor>{_NUM})\.(?P<patch>{_NUM})"
    rf"(?:-(?P<pre>{_PRE_ID}(?:\.{_PRE_ID})*))?"
    r"(?:\+(?P<build>[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?"
)


def _key(version: str) -> tuple:
    match = _VERSION.fullmatch(version) if isinstance(version, str) else None
    if match is None:
        raise ValueError(f"not a semantic version: {version!r}")
    core = tuple(int(match[part]) for part in ("major", "minor", "patch"))
    pre = match["pre"]
    if pre is None:
        return (*core, 1, ())
    # Numeric identifiers sort before text ones: (0, n, "") < (1, 0, "text").
    ids = tuple((0, int(i), "") if i.isdigit() else (1, 0, i) for i in pre.split("."))
    return (*core, 0, ids)


def compare(a: str, b: str) -> int:
    """Return -1, 0 or 1 as version a has lower, equal or higher precedence than version b.

    Raises ValueError when a or b is not a valid version.
    """
    ka, kb = _key(a), _key(b)
    return (ka > kb) - (ka < kb)
PY
python3 -m unittest -q test_semver
