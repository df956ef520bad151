"""Which hooks a matcher selects, read as Claude Code reads it.

    ""  or  "*"             every tool (every value)
    "Bash"                  exactly Bash
    "Edit|Write"            either, exactly
    "mcp__github__.*"       anything else is a regular expression, searched in the name

A matcher that is not a valid expression is reported when the settings are read, and matches nothing.
"""

import re

_PLAIN = re.compile(r"[A-Za-z0-9_|]+")


def matcher_error(matcher: str) -> str | None:
    """Why `matcher` cannot be used (an invalid regular expression), or None."""
    if matcher in ("", "*") or _is_plain(matcher):
        return None
    try:
        re.compile(matcher)
    except re.error as exc:
        return f"matcher {matcher!r} is not a valid regular expression ({exc})"
    return None


def matches(matcher: str, value: str) -> bool:
    """Does `matcher` select `value` (a tool's Claude Code name, a session's source…)?"""
    if matcher in ("", "*"):
        return True
    if _is_plain(matcher):
        return value in matcher.split("|")
    try:
        return re.search(matcher, value) is not None
    except re.error:
        return False


def _is_plain(matcher: str) -> bool:
    return _PLAIN.fullmatch(matcher) is not None
