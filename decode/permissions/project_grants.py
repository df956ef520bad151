"""What a repository's own settings grant: held aside until the user trusts them.

A cloned repository can carry `.claude/settings.json` or `.decode/settings.json` allowing
`Bash(curl:*)` or choosing `acceptEdits`. Those grants come from whoever wrote the repository, so
`settings_files` keeps them here, never merged with the user's rules, and the front ends show
them. Lesson 06 never puts them in force (nothing a repository ships grants itself anything);
lesson 09's Project Trust (`project_trust`) lets the user say yes to them as written.

What else a repository grants outside its settings files (an agent file in `.claude/agents/`
choosing `acceptEdits`, or replacing a built-in agent) comes in as `OtherGrant`s, plain data
the layer that reads those files computes: one trust, one hash, covers them all.
"""

from dataclasses import dataclass, field
from pathlib import Path

from decode.permissions.types import Layer, Mode, Rule, RuleSource

# [lesson 09]
NOT_TRUSTED = (
    "the project's settings are not trusted yet (decode permissions trust; decode run --trust-project-settings)"
)
# [before lesson 09]
# NOT_TRUSTED = "the project's settings are not trusted (decode run --trust-project-settings: for one run)"
# [/lesson 09]
OTHER_GRANTS = "decode.other_grants"
"""The click context key under which the `decode` command hands `decode permissions` a function
`project -> list[OtherGrant]` (the agents' grants, from a layer above this one)."""
GRANTING_MODES = (Mode.ACCEPT_EDITS,)
"""Modes that let more run than `default`, so wait for trust (`plan` restricts; `bypass` is refused)."""


@dataclass(frozen=True)
class OtherGrant:
    """A grant the repository makes outside its settings files, as written: file, line, what it grants."""

    path: Path
    line: int | None
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}" if self.line else str(self.path)


@dataclass
class ProjectGrants:
    """The allow rules and default mode the repository's own settings files give."""

    rules: list[Rule] = field(default_factory=list)
    mode: Mode | None = None
    mode_source: RuleSource | None = None
    mode_text: str = ""
    others: list[OtherGrant] = field(default_factory=list)
    """What the repository's agent files grant (`decode.agents.trust`)."""

    def __bool__(self) -> bool:
        return bool(self.rules) or self.mode is not None or bool(self.others)

    def first_path(self) -> Path | None:
        """The file of the first grant: where a question or notice about them points."""
        source = self.rules[0].source if self.rules else self.mode_source
        if source is not None:
            return source.path
        return self.others[0].path if self.others else None

    def content(self, project: Path) -> dict[str, dict[str, object]]:
        """The grants as written, by file (relative to the project): what a trust is given for."""
        by_file: dict[str, dict[str, object]] = {}

        def entry(source: RuleSource | None) -> dict[str, object]:
            path = source.path if source else Path("?")
            name = str(path.relative_to(project)) if path.is_relative_to(project) else str(path)
            return by_file.setdefault(name, {})

        for rule in self.rules:
            allows = entry(rule.source).setdefault("allow", [])
            assert isinstance(allows, list)
            allows.append(rule.text)
        if self.mode is not None:
            entry(self.mode_source)["defaultMode"] = self.mode_text
        for grant in self.others:
            others = entry(RuleSource(Layer.PROJECT, grant.path, grant.line)).setdefault("grants", [])
            assert isinstance(others, list)
            others.append(grant.text)
        return by_file

    def describe(self) -> list[str]:
        """One line per grant: the rule or mode, and where it is written."""
        lines = [f"allow {rule.text}  ({rule.source})" for rule in self.rules]
        if self.mode is not None:
            lines.append(f"defaultMode {self.mode_text}  ({self.mode_source})")
        lines += [f"{grant.text}  ({grant})" for grant in self.others]
        return lines
