"""Helpers for the permission tests."""

from pathlib import Path

from decode.permissions.gate import PermissionGate
from decode.permissions.rules import parse_rule
from decode.permissions.types import Decision, Mode


def gate_with(workspace: Path, *rules: str, mode: Mode = Mode.DEFAULT) -> PermissionGate:
    """A gate with rules written `deny Bash(rm:*)`, for tests that need no settings files."""
    parsed = [parse_rule(text, Decision(action)) for action, text in (rule.split(" ", 1) for rule in rules)]
    return PermissionGate(parsed, mode, workspace=workspace)
