"""Reference solutions of lesson 14's exercises, and a plausible mistake for each that its check rejects."""

import re
from collections.abc import Mapping

VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


def expand(text: str, env: Mapping[str, str]) -> str:
    """One regular expression: the name, then an optional `:-default`; empty counts as unset."""

    def value(match: re.Match[str]) -> str:
        found = env.get(match.group(1), "")
        return found if found or match.group(2) is None else match.group(2)

    return VARIABLE.sub(value, text)


def wrong_expand(text: str, env: Mapping[str, str]) -> str:
    """Uses the default only when the variable is missing: an empty one stays empty, unlike the shell."""
    return VARIABLE.sub(lambda m: env.get(m.group(1), m.group(2) or ""), text)


def _part(text: str) -> str:
    return re.sub(r"_{2,}", "_", re.sub(r"[^A-Za-z0-9_-]", "_", text)).strip("_") or "x"


def tool_name(server: str, tool: str) -> str:
    """Each part sanitised (no `__` inside), joined, cut to 64 characters."""
    return f"mcp__{_part(server)}__{_part(tool)}"[:64]


def wrong_tool_name(server: str, tool: str) -> str:
    """Replaces what providers refuse, but keeps `__` inside a part: `a__b` could be a server or a separator."""
    return f"mcp__{re.sub(r'[^A-Za-z0-9_-]', '_', server)}__{re.sub(r'[^A-Za-z0-9_-]', '_', tool)}"[:64]
