"""Project Trust for settings: what a repository's settings grant waits for the user's yes.

A cloned repository can carry `.claude/settings.json` or `.decode/settings.json` allowing
`Bash(curl:*)` or choosing `acceptEdits`. Those grants come from whoever wrote the repository, so
they are not in force until the user trusts them, as a project's `.mcp.json` servers are: the REPL
asks once (showing each grant), `decode permissions trust` says yes from a shell, and `decode run
--trust-project-settings` for one run. The yes is kept in `~/.decode/trusted-settings.json` for a
hash of the grants as written: a changed grant asks again. Deny and ask rules, and a `plan` or
`default` mode, need no trust: a repository may always restrict itself.

What else a repository grants outside its settings files (an agent file in `.claude/agents/`
choosing `acceptEdits`, or replacing a built-in agent) comes in as `OtherGrant`s, plain data
the layer that reads those files computes: one trust, one hash, covers them all.
"""

from dataclasses import dataclass, field
from pathlib import Path

from decode.config import trust_store
from decode.config.harness_home import HARNESS_DIR
from decode.permissions.types import Layer, Mode, Rule, RuleSource

TRUST_FILE = HARNESS_DIR / "trusted-settings.json"
NOT_TRUSTED = (
    "the project's settings are not trusted yet (decode permissions trust; decode run --trust-project-settings)"
)
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


def is_trusted(project: Path, grants: ProjectGrants, home: Path | None = None) -> bool:
    """Has the user trusted exactly these grants for this project? (No grants: nothing to trust.)"""
    if not grants:
        return True
    home = home if home is not None else Path.home()
    return trust_store.is_trusted(home / TRUST_FILE, project, trust_store.fingerprint(grants.content(project)))


def trust(project: Path, grants: ProjectGrants, home: Path | None = None) -> Path:
    """Remember that the user trusts these grants for this project; returns the file written."""
    home = home if home is not None else Path.home()
    return trust_store.remember(home / TRUST_FILE, project, trust_store.fingerprint(grants.content(project)))
