"""Granting the network to a sandboxed command: each command that asks for it needs a `Network` rule.

Under a sandbox without network (`gate.network_isolated`), a bash call with `network: true` is
judged twice per command: as a command (its `Bash` rules) and as a grant of the network (its
`Network` rules, never the read-only list). An "always" answer saves both.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from decode.entities.tools import ToolTraits
from decode.permissions.decision_order import Part
from decode.permissions.network_rules import NETWORK_RULE

if TYPE_CHECKING:
    from decode.permissions.command_reading import Check
    from decode.permissions.gate import PermissionGate


def wants_network(gate: PermissionGate, args: Mapping[str, Any], traits: ToolTraits) -> bool:
    """Does this call ask for a network its sandbox would otherwise not give it?"""
    return gate.network_isolated and traits.network is not None and args.get(traits.network) is True


def network_parts(checks: tuple[Check, ...], network: bool) -> list[Part]:
    """A `Network` part for each command of a call that asked for the network (none otherwise).

    They go first, so the question the user answers says it grants the network."""
    if not network:
        return []
    return [Part(f"network for {check.text}", (NETWORK_RULE,), check=check) for check in checks]


def with_network(rules: list[str], network: bool) -> list[str]:
    """`rules` and, for a call that asked for the network, a `Network` rule beside each `Bash` one."""
    if not network:
        return rules
    return [*rules, *(NETWORK_RULE + rule.removeprefix("Bash") for rule in rules if rule.startswith("Bash("))]
