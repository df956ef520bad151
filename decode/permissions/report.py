"""The rules in force and the files they come from, as `decode permissions` and `/permissions` show them.

Lines of text and JSON fields, built from a `PermissionGate`; the front ends print them.
"""

from typing import Any

from decode.permissions.gate import PermissionGate
from decode.permissions.project_grants import NOT_TRUSTED


def describe_rules(gate: PermissionGate, where: str) -> list[str]:
    """The mode (and `where` it was set) and the rules in force, one line each."""
    lines = [f"mode: {gate.mode} ({where})"]
    if not gate.rules:
        lines.append("no rules: the mode decides every call")
    width = max((len(rule.text) for rule in gate.rules), default=0)
    for rule in gate.rules:
        layer = f" ({rule.source.layer})" if rule.source else ""
        lines.append(f"{rule.action.value:<5}  {rule.text:<{width}}  {rule.source}{layer}")
    return lines


def describe_settings(gate: PermissionGate) -> list[str]:
    """The settings files read, the project's grants not in force (and why), the keys not used."""
    loaded = gate.settings
    if loaded is None:
        return []
    lines = ["files read, lowest priority first:" if loaded.files else "files read: none"]
    for file in loaded.files:
        lines.append(f"  {file.path} ({file.layer}{', from the repository' if file.shared else ''})")
    if loaded.grants and not loaded.trusted:
        lines.append(f"not in force: {NOT_TRUSTED}")
        lines += [f"  {grant}" for grant in loaded.grants.describe()]
    lines += [f"note: {note}" for note in loaded.notes]
    return lines


def rules_json(gate: PermissionGate, where: str) -> dict[str, Any]:
    """`describe_rules` and `describe_settings` as the fields of `decode permissions --json`."""
    rules = [
        {
            "action": rule.action.value,
            "rule": rule.text,
            "source": str(rule.source.path) if rule.source else None,
            "line": rule.source.line if rule.source else None,
            "layer": rule.source.layer.value if rule.source else None,
        }
        for rule in gate.rules
    ]
    problems = [str(problem) for problem in gate.problems]
    shown = {"mode": gate.mode.value, "mode_source": where, "rules": rules, "problems": problems}
    return shown | _settings_json(gate)


def _settings_json(gate: PermissionGate) -> dict[str, Any]:
    loaded = gate.settings
    if loaded is None:
        return {}
    held = [] if loaded.trusted else loaded.grants.describe()
    files = [{"path": str(file.path), "layer": file.layer.value, "shared": file.shared} for file in loaded.files]
    return {"files": files, "not_in_force": held, "notes": [str(note) for note in loaded.notes]}
