"""`Agent(explore)`: the rule names of the `agent` tool (Claude Code's `Task`), and their specifier.

A bare `Agent` rule covers every subagent; `Agent(explore)` one agent, by its name.
"""

import re

SUBAGENT_RULES = ("Agent", "Task")
"""The `agent` tool's rule names (Claude Code's `Task`): bare, every subagent; `Agent(explore)`, one agent."""
_AGENT_NAME = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*|\*", re.IGNORECASE)  # Claude Code writes `Agent(Explore)`


def agent_name_problem(tool: str, specifier: str) -> str | None:
    """What is wrong with `Agent(SPECIFIER)`, or None: it takes an agent's name, or `*`."""
    if not _AGENT_NAME.fullmatch(specifier):
        return f"{tool} takes an agent's name, like {tool}(explore), or *"
    return None
