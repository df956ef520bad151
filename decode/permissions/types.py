"""The vocabulary of permissions: modes, decisions, rules and where a rule came from."""

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from decode.permissions.modes import Mode as Mode  # here too: where the rest of the vocabulary is


class Decision(StrEnum):
    """What the Permission Gate says about one tool call."""

    ALLOW = "allow"
    ASK = "ask"
    DENY = "deny"


class Layer(StrEnum):
    """The settings file a rule was read from, lowest priority first."""

    USER = "user"  # ~/.decode/settings.json
    PROJECT = "project"  # .decode/settings.json, shared with the team
    LOCAL = "local"  # .decode/settings.local.json, git-ignored, where "always" answers go
    COMMAND_LINE = "command-line"  # `--settings FILE_OR_JSON`, for one run (Claude Code's order)


@dataclass(frozen=True)
class RuleSource:
    """Where a rule was written: the layer, the file and the line (when it could be found)."""

    layer: Layer
    path: Path
    line: int | None = None

    def __str__(self) -> str:
        return f"{self.path}:{self.line}" if self.line else str(self.path)


@dataclass(frozen=True)
class Rule:
    """One parsed permission rule, such as `deny Bash(rm:*)`.

    `tool` is the canonical rule name (`Bash`, `Read`, `mcp__github__create_issue`…) and
    `specifier` what is inside the parentheses, or None for a bare tool name.
    """

    action: Decision
    tool: str
    specifier: str | None = None
    source: RuleSource | None = None
    note: str = field(default="", compare=False)
    """Why decode put this rule in force itself (a deny standing in for a broken settings file)."""

    @property
    def text(self) -> str:
        """The rule as a user writes it, normalised (`bAsH(ls)` reads back as `Bash(ls)`)."""
        return self.tool if self.specifier is None else f"{self.tool}({self.specifier})"

    def __str__(self) -> str:
        return f"{self.text} ({self.note})" if self.note else self.text


@dataclass(frozen=True)
class Verdict:
    """The gate's answer: the decision, why, and the rule (with its file) that decided, if any."""

    decision: Decision
    reason: str
    rule: Rule | None = None
    mode_default: bool = False  # [lesson 12]
    """An ask only because no rule allows the call in this mode (no ask rule, hazard, protected or
    secret file): the one question a PreToolUse hook's allow answers, as an allow rule would."""

    @property
    def source(self) -> RuleSource | None:
        return self.rule.source if self.rule else None

    def to_json(self) -> dict[str, Any]:
        """The shape `decode permissions check --json` prints."""
        source = self.source
        return {
            "decision": self.decision.value,
            "rule": self.rule.text if self.rule else None,
            "source": str(source.path) if source else None,
            "line": source.line if source else None,
            "layer": source.layer.value if source else None,
            "reason": self.reason,
        }
