"""What an "always" answer saves: the narrowest allow rules that cover a call, or a wider prefix.

For a bash command, `rule_choices` offers first what each command ran as a prefix rule
(`Bash(python3 -m pytest:*)`, `Bash(git log:*)`: `prefixes.command_prefix`) where that is safe,
then the exact commands (`narrowest_rules`). Other tools get their narrowest rule only. A script
with a hazard gets none: it runs once, never "always" (ADR-0021).
"""

from __future__ import annotations

import posixpath
import shlex
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from decode.entities.tools import UNDECLARED, ToolTraits
from decode.permissions import paths
from decode.permissions.bash_check import analyse
from decode.permissions.network_grants import wants_network, with_network
from decode.permissions.prefixes import command_prefix
from decode.permissions.rules import (
    PATH_RULES,
    REDIRECT_READ_RULES,
    REDIRECT_WRITE_RULES,
    command_matches,
    dns_name,
    is_rule_host,
)

if TYPE_CHECKING:
    from decode.permissions.command_reading import Check
    from decode.permissions.gate import PermissionGate


async def narrowest_rules(
    gate: PermissionGate, tool: str, args: Mapping[str, Any], traits: ToolTraits = UNDECLARED
) -> list[str]:
    """The allow rules an "always" answer should save: the narrowest that cover this call.

    Empty when no rule can cover it (a script with a hazard runs once, never "always").
    """
    names = traits.rules
    if not names:
        return []
    argument = traits.argument(args)
    if traits.command is not None:
        rules = await _narrowest_bash(gate, argument or "")
        rules = with_network(rules, wants_network(gate, args, traits))  # [lesson 17]
        return rules
    if traits.path is not None and names[0] in PATH_RULES:
        return [f"{names[0]}({await _path_specifier(gate, argument or '.')})"]
    if traits.url is not None:
        host = _host(argument or "")
        return [f"{names[0]}(domain:{host})"] if host else []
    return [names[0]]


async def rule_choices(
    gate: PermissionGate, tool: str, args: Mapping[str, Any], traits: ToolTraits = UNDECLARED
) -> list[tuple[str, ...]]:
    """What an "always" answer may save, most useful first: each choice is a set of allow rules.

    For a bash command, the first choice names what each command ran (`Bash(python3 -m pytest:*)`,
    `Bash(git log:*)`: `prefixes.command_prefix`) where that is safe, the last one the exact
    commands (`narrowest_rules`). Other tools get their narrowest rules only. Empty when no
    rule can cover the call (a script with a hazard: ADR-0021).
    """
    narrowest = await narrowest_rules(gate, tool, args, traits)
    if not narrowest or traits.command is None:
        return [tuple(narrowest)] if narrowest else []
    prefixed = await _narrowest_bash(gate, traits.argument(args) or "", prefixes=True)
    prefixed = with_network(prefixed, wants_network(gate, args, traits))  # [lesson 17]
    return list(dict.fromkeys([tuple(prefixed), tuple(narrowest)]))


async def _narrowest_bash(gate: PermissionGate, command: str, *, prefixes: bool = False) -> list[str]:
    analysis = analyse(command)
    if analysis.hazards:
        return []
    rules: list[str] = []
    for check in analysis.checks:
        words = check.allow_forms[0]
        if None in words:
            return []
        exact = f"Bash({shlex.join(w for w in words if w is not None)})"
        rules.append((_prefix_rule(check) if prefixes else None) or exact)
    for redirect in analysis.redirects:
        if redirect.target is None:
            return []
        names = REDIRECT_WRITE_RULES if redirect.writes else REDIRECT_READ_RULES
        rules.append(f"{names[0]}({await _path_specifier(gate, redirect.target)})")
    return list(dict.fromkeys(rules))


async def _path_specifier(gate: PermissionGate, path: str) -> str:
    """A rule path naming exactly this file: `/src/a.py` (workspace), `~/…` or `//abs/…`."""
    _, resolved, _ = await gate.resolve(path)
    for root, prefix in ((gate.workspace, "/"), (gate.home, "~/")):
        if paths.is_within(resolved, root):
            return prefix + paths.escape(posixpath.relpath(resolved, root))
    return "/" + paths.escape(resolved)


def _prefix_rule(check: Check) -> str | None:
    """`Bash(FIRST WORDS:*)` for a command whose first words may be allowed as a prefix, if it covers it."""
    # [lesson 08]
    form = check.allow_forms[-1]  # the innermost: `npm test` inside `timeout 5 npm test`
    prefix = command_prefix(form)
    if prefix is None:
        return None
    specifier = f"{shlex.join(prefix)}:*"
    return f"Bash({specifier})" if command_matches(specifier, form) is True else None
    # [before lesson 08]
    # return None  # lesson 08 offers the words that name what ran (`Bash(git log:*)`)
    # [/lesson 08]


def _host(url: str) -> str | None:
    """The host a `WebFetch(domain:…)` rule for `url` names, as DNS reads it; None if no rule can."""
    from urllib.parse import urlsplit

    try:
        host = dns_name(urlsplit(url).hostname or "")  # `x.org.` is `x.org`; a rule cannot end in "."
    except ValueError:
        return None
    return host if is_rule_host(host) else None
