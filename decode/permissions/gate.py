"""The Permission Gate: before a tool runs, decide allow, ask or deny — and say which rule decided.

The order never changes: a deny rule wins, then an ask rule, then allow rules, then the mode's
default. A request is judged part by part (each command of a bash script, each file it
redirects to, the file a tool reads or edits): it is allowed only if every part is allowed, and a
deny on any part denies the whole. A bash script with a hazard (`$(…)`, `eval`, `curl | sh`,
text the parser cannot read) is never allowed by a rule: it asks, unless the mode is `bypass`.

The gate only decides; front ends do the asking (the REPL prompts, `decode run` refuses).
"""

import os
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from decode.permissions import paths
from decode.permissions.commands import Check, analyse_command
from decode.permissions.rules import (
    PATH_RULES,
    REDIRECT_READ_RULES,
    REDIRECT_WRITE_RULES,
    command_matches,
    domain_matches,
    rule_names_for_tool,
    tool_matches,
)
from decode.permissions.settings_files import SETTINGS_DIR, SettingsProblem, load_permission_settings
from decode.permissions.types import Decision, Mode, Rule, RuleSource, Verdict

# The kind of decode's own tools (`decode.agent.registry.ToolKind` values, compared as strings so
# that `decode permissions` does not have to import the agent). Other tools pass their kind.
READ_ONLY, FILE_EDIT, OTHER = "read-only", "file-edit", "other"
TOOL_KINDS = {"read": READ_ONLY, "glob": READ_ONLY, "grep": READ_ONLY, "edit": FILE_EDIT, "write": FILE_EDIT}
SEARCH_TOOLS = frozenset({"glob", "grep"})  # their path is a folder they read everything in
_ANY_FILE = "any-file"  # stands for "a file inside the searched folder" when matching rules

PLAN_GUIDANCE = (
    "plan mode: decode may read and search but not change anything. Do not try another way: "
    "present your plan to the user; they switch the mode when they want it carried out."
)


@dataclass(frozen=True)
class _Part:
    """One thing a request does, judged on its own: a command, a file, a host, or the tool itself."""

    label: str
    rule_names: tuple[str, ...]
    check: Check | None = None  # a bash command
    path: str | None = None  # a file (resolved), or None when only known at run time
    written: str | None = None  # the same file as written (not following symlinks)
    writes: bool = False
    searches: bool = False  # the path is a folder a search tool reads everything in
    url: str | None = None
    is_path: bool = False


class PermissionGate:
    """Decides, for one tool call, whether it runs (`allow`), needs the user (`ask`) or is refused."""

    def __init__(
        self, rules: Iterable[Rule] = (), mode: Mode = Mode.DEFAULT, *, workspace: Path, home: Path | None = None
    ) -> None:
        self.mode = mode
        self.workspace = os.path.realpath(workspace)
        self.home = os.path.realpath(home if home is not None else Path.home())
        # Settings files and git's hooks/config run or grant things: no mode edits them unasked.
        self.protected = (
            os.path.join(self.workspace, SETTINGS_DIR),
            os.path.join(self.workspace, ".git"),
            os.path.join(self.home, SETTINGS_DIR),
        )
        self._rules: dict[Decision, list[Rule]] = {action: [] for action in Decision}
        self.add_rules(rules)
        self.problems: list[SettingsProblem] = []  # what the settings files got wrong (from_settings)
        self.mode_source: RuleSource | None = None  # the file that set the mode, if one did

    @classmethod
    def from_settings(cls, workspace: Path, mode: Mode | None = None, home: Path | None = None) -> "PermissionGate":
        """A gate with the rules of the settings files; `gate.problems` lists what was skipped."""
        loaded = load_permission_settings(workspace, home)
        gate = cls(loaded.rules, mode or loaded.default_mode or Mode.DEFAULT, workspace=workspace, home=home)
        gate.problems = loaded.problems
        gate.mode_source = None if mode else loaded.mode_source
        return gate

    @property
    def rules(self) -> list[Rule]:
        """Every rule in force: denies, then asks, then allows (file order within each)."""
        return [*self._rules[Decision.DENY], *self._rules[Decision.ASK], *self._rules[Decision.ALLOW]]

    def add_rules(self, rules: Iterable[Rule]) -> None:
        """Put more rules in force (an "always" answer adds its allow rules here)."""
        for rule in rules:
            self._rules[rule.action].append(rule)

    def check(self, tool: str, args: Mapping[str, Any], kind: str | None = None) -> Verdict:
        """Judge one call of `tool` with `args` (as the model sent them)."""
        names = rule_names_for_tool(tool)
        kind = kind or TOOL_KINDS.get(tool, OTHER)
        if not names:
            return self._finish([], [f"{tool!r} is not a tool any rule can name"], kind)
        argument = request_argument(tool, args)
        if "Bash" in names:
            return self._check_bash(argument or "")
        if names[0] in PATH_RULES:
            part = self._path_part(argument or ".", names, writes=kind == FILE_EDIT, searches=tool in SEARCH_TOOLS)
            return self._finish([part], [], kind)
        if names[0] == "WebFetch":
            return self._finish([_Part(f"fetch {argument}", names, url=argument or "")], [], kind)
        return self._finish([_Part(tool, names)], [], kind)

    def _check_bash(self, command: str) -> Verdict:
        analysis = analyse_command(command)
        parts = [_Part(check.text, ("Bash",), check=check) for check in analysis.checks]
        for redirect in analysis.redirects:
            names = REDIRECT_WRITE_RULES if redirect.writes else REDIRECT_READ_RULES
            if redirect.target is None:
                parts.append(_Part("a file named at run time", names, writes=redirect.writes, is_path=True))
            else:
                parts.append(self._path_part(redirect.target, names, writes=redirect.writes))
        hazards = list(analysis.hazards) or ([] if command.strip() else ["an empty command"])
        return self._finish(parts, hazards, OTHER)

    def _path_part(self, path: str, names: tuple[str, ...], *, writes: bool, searches: bool = False) -> _Part:
        written = paths.absolute(path, self.workspace, self.home)
        verb = "write" if writes else "search" if searches else "read"
        return _Part(
            f"{verb} {path}",
            names,
            path=os.path.realpath(written),
            written=written,
            writes=writes,
            searches=searches,
            is_path=True,
        )

    def _finish(self, parts: list[_Part], hazards: list[str], kind: str) -> Verdict:
        """Apply the fixed order: deny, plan mode, ask, bypass, hazards, allow, the mode's default."""
        for part in parts:
            for rule in self._rules[Decision.DENY]:
                if self._matches(rule, part, broad=True):
                    return Verdict(Decision.DENY, f"{part.label}: denied by {rule}", rule)
        if self.mode is Mode.PLAN and kind != READ_ONLY:
            return Verdict(Decision.DENY, PLAN_GUIDANCE)
        for part in parts:
            for rule in (*self._rules[Decision.ASK], *self._rules[Decision.DENY]):
                match = self._matches(rule, part, broad=True)
                if match is None and rule.action is Decision.DENY:
                    return Verdict(Decision.ASK, f"{part.label}: might match deny rule {rule}", rule)
                if match and self.mode is not Mode.BYPASS:
                    return Verdict(Decision.ASK, f"{part.label}: ask rule {rule}", rule)
        if self.mode is Mode.BYPASS:
            return Verdict(Decision.ALLOW, "bypass mode: everything not denied runs")
        if hazards:
            return Verdict(Decision.ASK, "; ".join(hazards))
        used: Rule | None = None
        for part in parts:
            rule = next((r for r in self._rules[Decision.ALLOW] if self._matches(r, part, broad=False)), None)
            if rule is not None:
                used = used or rule  # report the first part's rule: usually the command itself
            elif not self._mode_allows(part, kind):
                return Verdict(Decision.ASK, f"{part.label}: no rule allows it in {self.mode} mode")
        if used is not None:
            return Verdict(Decision.ALLOW, f"allowed by {used}", used)
        return Verdict(Decision.ALLOW, f"{self.mode} mode allows {kind} tools here")

    def _matches(self, rule: Rule, part: _Part, *, broad: bool) -> bool | None:
        """Does `rule` cover `part`? None: cannot tell (a word or path known only at run time)."""
        if not any(tool_matches(rule, name) for name in part.rule_names):
            return False
        if rule.specifier is None:
            return True
        if part.check is not None:
            forms = part.check.block_forms if broad else part.check.allow_forms
            results = [command_matches(rule.specifier, form) for form in forms]
            return True if True in results else (None if None in results else False)
        if part.is_path:
            if part.path is None:
                return None
            pattern = paths.compile_pattern(rule.specifier, self.workspace, self.home)
            targets = [part.path, part.written] if broad and part.written is not None else [part.path]
            if part.searches:  # a rule covering everything in a folder covers searching it
                targets += [f"{target}/{_ANY_FILE}" for target in targets]
            return any(pattern.matches(target) for target in targets)
        if part.url is not None:
            return domain_matches(rule.specifier, part.url)
        return False

    def _mode_allows(self, part: _Part, kind: str) -> bool:
        """The mode's default for a part no rule allowed."""
        if part.check is not None or part.url is not None:
            return False  # commands and fetches always need a rule (or bypass)
        if not part.is_path:
            return kind == READ_ONLY or (kind == FILE_EDIT and self.mode is Mode.ACCEPT_EDITS)
        if part.path is None or not paths.is_within(part.path, self.workspace):
            return False  # outside the workspace, or unknown: ask
        if not part.writes:
            return True
        protected = any(paths.is_within(part.path, root) for root in self.protected)
        return self.mode is Mode.ACCEPT_EDITS and not protected

    def narrowest_rules(self, tool: str, args: Mapping[str, Any]) -> list[str]:
        """The allow rules an "always" answer should save: the narrowest that cover this call.

        Empty when no rule can cover it (a script with a hazard runs once, never "always").
        """
        names = rule_names_for_tool(tool)
        argument = request_argument(tool, args)
        if not names:
            return []
        if "Bash" in names:
            return self._narrowest_bash(argument or "")
        if names[0] in PATH_RULES:
            return [f"{names[0]}({self._path_specifier(argument or '.')})"]
        if names[0] == "WebFetch":
            host = _host(argument or "")
            return [f"WebFetch(domain:{host})"] if host else []
        return [names[0]]

    def _narrowest_bash(self, command: str) -> list[str]:
        analysis = analyse_command(command)
        if analysis.hazards:
            return []
        rules: list[str] = []
        for check in analysis.checks:
            words = check.allow_forms[0]
            if None in words:
                return []
            rules.append(f"Bash({shlex.join(w for w in words if w is not None)})")
        for redirect in analysis.redirects:
            if redirect.target is None:
                return []
            names = REDIRECT_WRITE_RULES if redirect.writes else REDIRECT_READ_RULES
            rules.append(f"{names[0]}({self._path_specifier(redirect.target)})")
        return list(dict.fromkeys(rules))

    def _path_specifier(self, path: str) -> str:
        """A rule path naming exactly this file: `/src/a.py` (workspace), `~/…` or `//abs/…`."""
        resolved = paths.resolve(path, self.workspace, self.home)
        for root, prefix in ((self.workspace, "/"), (self.home, "~/")):
            if paths.is_within(resolved, root):
                return prefix + _escape(os.path.relpath(resolved, root))
        return "/" + _escape(resolved)


def request_argument(tool: str, args: Mapping[str, Any]) -> str | None:
    """The argument rules talk about: bash's command, a file tool's path, a fetch's URL."""
    if tool == "bash":
        return _text(args.get("command"))
    if tool == "glob":
        # Only the fixed start of the pattern says where it looks: `../../**/*.pem` leaves the tree.
        folder = _text(args.get("path")) or "."
        pattern = _text(args.get("pattern")) or ""
        fixed = pattern.split("*", 1)[0].split("?", 1)[0].split("[", 1)[0].rpartition("/")[0]
        return str(Path(folder) / fixed) if fixed else folder
    if tool == "web_fetch":
        return _text(args.get("url"))
    return _text(args.get("path", args.get("file_path")))


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


def _host(url: str) -> str | None:
    from urllib.parse import urlsplit

    try:
        return urlsplit(url).hostname
    except ValueError:
        return None


def _escape(path: str) -> str:
    """Escape gitignore's special characters so the rule names this one path."""
    return "".join("\\" + c if c in "*?[]!#\\" else c for c in path)
