"""The tool a user names on the command line (`decode permissions check TOOL ARG`), and its argument.

A tool answers to its name (`bash`), the first rule name it answers to (`Bash`), or, for an MCP
tool, its own `mcp__server__tool` name. Its traits come from `DECLARED_TRAITS`, not from the
tools themselves (those load pydantic-ai).
"""

import re
from typing import Any

from decode.entities.tools import ToolKind, ToolTraits
from decode.tools.declared_traits import DECLARED_TRAITS

MCP_TOOL = re.compile(r"mcp__[A-Za-z0-9-](?:[A-Za-z0-9_-]*[A-Za-z0-9-])?__[A-Za-z0-9_-]*[A-Za-z0-9-]")


class UnknownTool(ValueError):
    """A name no tool answers to; the message lists the ones that do."""


def find_tool(typed: str) -> tuple[str, ToolTraits]:
    """The tool `typed` names and its traits; `UnknownTool` if none."""
    if typed.startswith("mcp__"):  # an MCP tool answers to its own name (and its server's)
        if not MCP_TOOL.fullmatch(typed):
            raise UnknownTool(f"{typed!r} is not an MCP tool name: mcp__SERVER__TOOL (ASCII letters, digits, _ -)")
        return typed, ToolTraits(ToolKind.OTHER, rules=(typed,))
    for name, traits in DECLARED_TRAITS.items():
        if typed == name or (traits.rules and typed.lower() == traits.rules[0].lower()):
            return name, traits
    known = ", ".join(DECLARED_TRAITS)
    raise UnknownTool(f"unknown tool {typed!r} (known: {known}, or mcp__server__tool)")


def tool_arguments(traits: ToolTraits, argument: str) -> dict[str, Any]:
    """`argument` as the tool's own arguments: under the one its traits say rules talk about."""
    key = traits.command or traits.url or traits.pattern or traits.path
    return {key: argument} if argument and key else {}
