"""`Agent(explore)`: the rule names of the `agent` tool (Claude Code's `Task`), their specifier, what a call names.

A bare `Agent` rule covers every subagent; `Agent(explore)` one agent, by its name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # rules.py imports this module, and must stay light (no pydantic)
    from decode.entities.tools import ToolTraits

SUBAGENT_RULES = ("Agent", "Task")
"""The `agent` tool's rule names (Claude Code's `Task`): bare, every subagent; `Agent(explore)`, one agent."""
_AGENT_NAME = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*|\*", re.IGNORECASE)  # Claude Code writes `Agent(Explore)`


def agent_name_problem(tool: str, specifier: str) -> str | None:
    """What is wrong with `Agent(SPECIFIER)`, or None: it takes an agent's name, or `*`."""
    if not _AGENT_NAME.fullmatch(specifier):
        return f"{tool} takes an agent's name, like {tool}(explore), or *"
    return None


def subject_of(args: Mapping[str, Any], traits: ToolTraits) -> str:
    """What an `Agent(NAME)` rule names in this call: the agent it runs ("" when none)."""
    subject = args.get(traits.subject) if traits.subject is not None else None
    return subject if isinstance(subject, str) else ""
