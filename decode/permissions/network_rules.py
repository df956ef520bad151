"""`Network(npm install:*)`: commands that may reach the network in a sandbox that isolates it.

The specifier is a bash-style pattern, matched command by command as `Bash` rules are.
"""

from decode.permissions.command_patterns import PatternError, command_pattern

NETWORK_RULE = "Network"
"""`Network(npm install:*)`: commands that may reach the network in a sandbox that isolates it
(a bash-style pattern, matched command by command as `Bash` rules are)."""


def network_pattern_problem(tool: str, specifier: str) -> str | None:
    """What is wrong with `Network(SPECIFIER)`, or None: a command pattern, or `*`."""
    if specifier == "*":
        return None
    try:
        command_pattern(specifier)
    except PatternError as exc:
        return f"the command cannot be read ({exc})"
    return None
