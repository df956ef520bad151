"""Permission rules from three settings files, in the format Claude Code uses:

    {"permissions": {"allow": ["Bash(git diff:*)"], "ask": [], "deny": ["Read(.env)"],
                     "defaultMode": "default"}}

Layers, lowest priority first: user `~/.decode/settings.json`, project `.decode/settings.json`
(shared with the team), local `.decode/settings.local.json` (git-ignored; "always" answers are
written there). When two layers give the same rule different actions the later layer wins, except
that a deny anywhere stands. The later layer's `defaultMode` wins.

A file that is not valid JSON, or a rule that cannot be read, is reported with its path and line
and skipped: decode still starts, with every other rule in force.
"""

import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from decode.config.harness_home import HARNESS_DIR, make_parent_dirs
from decode.files import write_atomic
from decode.permissions.rules import RuleError, parse_rule
from decode.permissions.types import Decision, Layer, Mode, Rule, RuleSource

logger = logging.getLogger(__name__)

_ACTIONS = (Decision.ALLOW, Decision.ASK, Decision.DENY)


@dataclass(frozen=True)
class SettingsProblem:
    """Something wrong in a settings file: where, and what."""

    path: Path
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else str(self.path)
        return f"{where}: {self.message}"


@dataclass
class PermissionSettings:
    """The effective rules of all layers, the default mode (and where it was set), the problems."""

    rules: list[Rule] = field(default_factory=list)
    default_mode: Mode | None = None
    mode_source: RuleSource | None = None
    problems: list[SettingsProblem] = field(default_factory=list)


def settings_paths(project: Path, home: Path | None = None) -> dict[Layer, Path]:
    """The three settings files, lowest priority first."""
    home = home if home is not None else Path.home()
    return {
        Layer.USER: home / HARNESS_DIR / "settings.json",
        Layer.PROJECT: project / HARNESS_DIR / "settings.json",
        Layer.LOCAL: project / HARNESS_DIR / "settings.local.json",
    }


def load_permission_settings(project: Path, home: Path | None = None) -> PermissionSettings:
    """Read every layer that exists and merge them (see the module docstring for the order)."""
    result = PermissionSettings()
    merged: dict[str, Rule] = {}  # rule text -> the allow/ask rule in force
    denies: dict[str, Rule] = {}
    for layer, path in settings_paths(project, home).items():
        if not path.is_file():
            continue
        for rule in _read_layer(layer, path, result):
            if rule.action is Decision.DENY:
                denies.setdefault(rule.text, rule)
            else:
                merged.pop(rule.text, None)  # re-insert so the later layer's rule takes its place
                merged[rule.text] = rule
    result.rules = [*denies.values(), *merged.values()]
    return result


def _read_layer(layer: Layer, path: Path, result: PermissionSettings) -> list[Rule]:
    try:
        text = path.read_text(encoding="utf-8")
        data = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        result.problems.append(SettingsProblem(path, exc.lineno, f"not valid JSON ({exc.msg}); file ignored"))
        return []
    except (OSError, UnicodeDecodeError) as exc:
        result.problems.append(SettingsProblem(path, None, f"cannot be read ({exc}); file ignored"))
        return []
    permissions = data.get("permissions", {}) if isinstance(data, dict) else None
    if not isinstance(permissions, dict):
        result.problems.append(SettingsProblem(path, 1, '"permissions" must be an object; file ignored'))
        return []
    rules: list[Rule] = []
    for action in _ACTIONS:
        entries = permissions.get(action.value, [])
        key_at = text.find(f'"{action.value}"')
        if not isinstance(entries, list):
            result.problems.append(SettingsProblem(path, _line(text, key_at), f'"{action}" must be a list of rules'))
            continue
        cursor = max(key_at, 0)
        for entry in entries:
            cursor = _find(text, entry, cursor)
            line = _line(text, cursor)
            if not isinstance(entry, str):
                result.problems.append(SettingsProblem(path, line, f"{entry!r} in {action} is not a string; skipped"))
                continue
            try:
                rules.append(parse_rule(entry, action, RuleSource(layer, path, line)))
            except RuleError as exc:
                result.problems.append(SettingsProblem(path, line, f"{exc}; skipped"))
    if "defaultMode" in permissions:
        line = _line(text, text.find('"defaultMode"'))
        try:
            result.default_mode = Mode.parse(str(permissions["defaultMode"]))
            result.mode_source = RuleSource(layer, path, line)
        except ValueError as exc:
            result.problems.append(SettingsProblem(path, line, f"{exc}; ignored"))
    return rules


def _find(text: str, entry: object, start: int) -> int:
    """Where an entry of a list is written, searching from `start` (which it returns if not found)."""
    for spelling in (json.dumps(entry, ensure_ascii=False), json.dumps(entry)):
        if (found := text.find(spelling, start)) >= 0:
            return found
    return start


def _line(text: str, offset: int) -> int | None:
    """The 1-based line of a character offset (None when the text was not found)."""
    return text.count("\n", 0, offset) + 1 if offset >= 0 else None


def add_allow_rules(project: Path, rules: list[str]) -> Path:
    """Append allow rules to the local settings file (creating it), keeping everything else in it.

    Used by the "always" approval. Raises `ValueError` when the file exists but is not a JSON
    object: it is never overwritten, because that would lose what the user wrote.
    """
    path = settings_paths(project)[Layer.LOCAL]
    data: dict[str, Any] = {}
    existing = path.read_text(encoding="utf-8") if path.is_file() else ""
    if existing.strip():
        try:
            data = json.loads(existing)
        except json.JSONDecodeError as exc:
            raise ValueError(f"{path}:{exc.lineno}: not valid JSON; not changed") from None
        if not isinstance(data, dict) or not isinstance(data.get("permissions", {}), dict):
            raise ValueError(f"{path}: not a settings object; not changed")
    allow = data.setdefault("permissions", {}).setdefault("allow", [])
    if not isinstance(allow, list):
        raise ValueError(f'{path}: "allow" is not a list; not changed')
    allow.extend(rule for rule in rules if rule not in allow)
    make_parent_dirs(path)  # a new `.decode/` gets its .gitignore first
    write_atomic(path, (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    logger.info("added %s to %s", ", ".join(rules), path)
    return path
