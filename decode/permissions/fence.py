"""A subagent's gate: its parent's Permission Fence, a read-only promise, tools confined to rules.

A gate `fenced()` from its parent's judges each call by the shared rules and its own mode, then
by its parent's gate: the child's verdict is never looser than the parent's on the same call (a
parent's deny, ask or plan mode holds). A read-only agent's gate denies, rather than asks, a
call that would change something, and of commands runs only those of the read-only list. An
agent whose tools say `Bash(git diff:*)` may call bash only as those allow rules say.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from decode.entities.tools import ToolKind, ToolTraits
from decode.permissions.types import Decision, Rule, Verdict

if TYPE_CHECKING:
    from decode.permissions.decision_order import Part
    from decode.permissions.gate import PermissionGate

READ_ONLY_AGENT = "this agent is read-only: it runs only the commands of decode's read-only list and changes nothing"
_STRICTNESS = {Decision.ALLOW: 0, Decision.ASK: 1, Decision.DENY: 2}


async def narrowed(
    gate: PermissionGate, verdict: Verdict, tool: str, args: Mapping[str, Any], traits: ToolTraits
) -> Verdict:
    """`verdict` (the gate's own) as the agent's promises and the parent's gate narrow it."""
    if verdict.decision is Decision.DENY:
        return verdict
    if gate.read_only and traits.command is None and traits.kind in (ToolKind.FILE_EDIT, ToolKind.OTHER):
        return Verdict(Decision.DENY, f"{tool}: {READ_ONLY_AGENT}")
    if (only := gate.confined.get(tool)) and not await _confined_to(gate, only, tool, args, traits):
        return Verdict(Decision.DENY, f"{tool}: this agent may use it only as {', '.join(r.text for r in only)}")
    if gate.fence is not None:
        outer = await gate.fence.check(tool, args, traits)
        if _STRICTNESS[outer.decision] > _STRICTNESS[verdict.decision]:
            return Verdict(outer.decision, f"{outer.reason} (the parent agent's permissions)", outer.rule)
    return verdict


async def _confined_to(
    gate: PermissionGate, rules: list[Rule], tool: str, args: Mapping[str, Any], traits: ToolTraits
) -> bool:
    """Does one of `rules` allow this call (a read-only command may go with it)?"""
    probe = type(gate)(
        rules, workspace=Path(gate.workspace), home=Path(gate.home), realpath=gate.realpath, secret_files=()
    )
    verdict = await probe.own_verdict(tool, args, traits)
    return verdict.decision is Decision.ALLOW and verdict.rule is not None


def read_only_denial(gate: PermissionGate, parts: list[Part], hazards: list[str]) -> Verdict | None:
    """A read-only gate's deny of a bash script that would change something; None otherwise."""
    if not gate.read_only:
        return None
    why = _changes_something(parts, hazards)
    return None if why is None else Verdict(Decision.DENY, f"{why} ({READ_ONLY_AGENT})")


def _changes_something(parts: list[Part], hazards: list[str]) -> str | None:
    """Why a bash script is not read-only (a command off the list, a file written, a hazard), or None."""
    if hazards:
        return hazards[0]
    for part in parts:
        if part.check is not None and part.read_only is None:
            return part.not_read_only or f"{part.label} is not on the read-only list"
        if part.writes:
            return f"{part.label} writes a file"
    return None
