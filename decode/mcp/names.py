"""MCP tool names as the model sees them: `mcp__<server>__<tool>`.

Providers accept tool names of letters, digits, `_` and `-`, at most 64 characters. Servers name
their tools as they like (`get-current-time`, `search.docs`, `日付`), so each part is sanitised: every
other character becomes `_`, runs of `_` collapse (a double underscore separates the parts, so
it must not appear inside one) and a name too long is cut, with a short hash of the original
kept so two long names stay apart. Two tools that still end up with the same name are a
collision: the first keeps it, the second is dropped and reported.
"""

import hashlib
import re

PREFIX = "mcp__"
MAX_LENGTH = 64
_UNSAFE = re.compile(r"[^A-Za-z0-9_-]")
_UNDERSCORES = re.compile(r"_{2,}")


def sanitise(part: str) -> str:
    """One part of a name (a server's or a tool's) in `[A-Za-z0-9_-]`, without `__` or edge `_`."""
    safe = _UNDERSCORES.sub("_", _UNSAFE.sub("_", part)).strip("_")
    return safe or "x"


def tool_name(server: str, tool: str) -> str:
    """`mcp__<server>__<tool>`, sanitised and at most `MAX_LENGTH` characters."""
    name = _uncut(server, tool)
    if len(name) <= MAX_LENGTH:
        return name
    digest = hashlib.sha256(f"{server}\0{tool}".encode()).hexdigest()[:8]
    return f"{name[: MAX_LENGTH - len(digest) - 1].rstrip('_')}-{digest}"


def _uncut(server: str, tool: str) -> str:
    return f"{PREFIX}{sanitise(server)}__{sanitise(tool)}"


def rule_names(server: str, tool: str) -> tuple[str, ...]:
    """The names a tool's rules may use: its name and, when that was cut (and may have lost its
    server's part), the uncut `mcp__<server>__<tool>`, so `mcp__<server>` rules still reach it."""
    name, uncut = tool_name(server, tool), _uncut(server, tool)
    return (name,) if name == uncut else (name, uncut)


def server_rule(server: str) -> str:
    """The rule name that covers every tool of `server`: `mcp__<server>`."""
    return PREFIX + sanitise(server)
