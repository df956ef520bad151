"""The Permission Gate: before a tool runs, decide allow, ask or deny — and say which rule decided.

The order never changes: a deny rule wins, then an ask rule, then allow rules, then the mode's
default. A request is judged part by part (each command of a bash script, each file it
redirects to, the file a tool reads or edits): it is allowed only if every part is allowed, and a
deny on any part denies the whole. A bash script with a hazard (`$(…)`, `eval`, `curl | sh`,
text the parser cannot read) is never allowed by a rule: it asks, unless the mode is `bypass`.

The gate only decides; front ends do the asking (the REPL prompts, `decode run` refuses).
"""

import os
import posixpath
import shlex
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from decode.config.harness_home import HARNESS_DIR
from decode.entities.tools import UNDECLARED, ToolKind, ToolTraits
from decode.permissions import paths
from decode.permissions.commands import Check, analyse_command
from decode.permissions.rules import (
    PATH_RULES,
    REDIRECT_READ_RULES,
    REDIRECT_WRITE_RULES,
    command_matches,
    domain_matches,
    tool_matches,
)
from decode.permissions.settings_files import SettingsProblem, load_permission_settings
from decode.permissions.types import Decision, Mode, Rule, RuleSource, Verdict
from decode.tools.local import local_realpath

Realpath = Callable[[Path], Awaitable[Path]]
"""How paths are resolved: the executor's `realpath`, the same function the tools use."""

# Kinds that run in plan mode: they read, or touch nothing outside the conversation.
PLAN_KINDS = frozenset({ToolKind.READ_ONLY, ToolKind.SIDE_EFFECT_FREE})
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
        self,
        rules: Iterable[Rule] = (),
        mode: Mode = Mode.DEFAULT,
        *,
        workspace: Path,
        home: Path | None = None,
        realpath: Realpath | None = None,
    ) -> None:
        self.mode = mode
        self.workspace = os.path.realpath(workspace)
        self.home = os.path.realpath(home if home is not None else Path.home())
        # Without an executor's (`decode permissions`), the local executor's resolution.
        self.realpath: Realpath = realpath or local_realpath
        # Settings files and git's hooks/config run or grant things: no mode edits them unasked.
        self.protected = (
            os.path.join(self.workspace, HARNESS_DIR.name),
            os.path.join(self.workspace, ".git"),
            os.path.join(self.home, HARNESS_DIR.name),
        )
        self._rules: dict[Decision, list[Rule]] = {action: [] for action in Decision}
        self.add_rules(rules)
        self.problems: list[SettingsProblem] = []  # what the settings files got wrong (from_settings)
        self.mode_source: RuleSource | None = None  # the file that set the mode, if one did

    @classmethod
    def from_settings(
        cls, workspace: Path, mode: Mode | None = None, home: Path | None = None, realpath: Realpath | None = None
    ) -> "PermissionGate":
        """A gate with the rules of the settings files; `gate.problems` lists what was skipped."""
        loaded = load_permission_settings(workspace, home)
        default = mode or loaded.default_mode or Mode.DEFAULT
        gate = cls(loaded.rules, default, workspace=workspace, home=home, realpath=realpath)
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

    async def check(self, tool: str, args: Mapping[str, Any], traits: ToolTraits = UNDECLARED) -> Verdict:
        """Judge one call of `tool` with `args` (as the model sent them), by the tool's traits."""
        if traits is UNDECLARED:  # a tool that says nothing about itself: nothing proves it harmless
            return self._finish([], [f"{tool!r} declares no traits, so no rule can name it"], traits.kind)
        names = traits.rules
        argument = traits.argument(args)
        if traits.command is not None:
            return await self._check_bash(argument or "")
        if traits.path is not None:
            writes = traits.kind is ToolKind.FILE_EDIT
            part = await self._path_part(argument or ".", names, writes=writes, searches=traits.searches)
            return self._finish([part], [], traits.kind)
        if traits.url is not None:
            return self._finish([_Part(f"fetch {argument}", names, url=argument or "")], [], traits.kind)
        return self._finish([_Part(tool, names)], [], traits.kind)

    async def _check_bash(self, command: str) -> Verdict:
        analysis = analyse_command(command)
        parts = [_Part(check.text, ("Bash",), check=check) for check in analysis.checks]
        for redirect in analysis.redirects:
            names = REDIRECT_WRITE_RULES if redirect.writes else REDIRECT_READ_RULES
            if redirect.target is None:
                parts.append(_Part("a file named at run time", names, writes=redirect.writes, is_path=True))
            else:
                parts.append(await self._path_part(redirect.target, names, writes=redirect.writes))
        hazards = list(analysis.hazards) or ([] if command.strip() else ["an empty command"])
        return self._finish(parts, hazards, ToolKind.OTHER)

    async def resolve(self, path: str) -> tuple[str, str]:
        """A path as written (absolute, normalised) and the real file it names (symlinks followed)."""
        written = paths.absolute(path, self.workspace, self.home)
        return written, str(await self.realpath(Path(written)))

    async def _path_part(self, path: str, names: tuple[str, ...], *, writes: bool, searches: bool = False) -> _Part:
        written, real = await self.resolve(path)
        verb = "write" if writes else "search" if searches else "read"
        return _Part(
            f"{verb} {path}", names, path=real, written=written, writes=writes, searches=searches, is_path=True
        )

    def _finish(self, parts: list[_Part], hazards: list[str], kind: ToolKind) -> Verdict:
        """Apply the fixed order: deny, plan mode, ask, bypass, hazards, allow, the mode's default."""
        for part in parts:
            for rule in self._rules[Decision.DENY]:
                if self._matches(rule, part, broad=True):
                    return Verdict(Decision.DENY, f"{part.label}: denied by {rule}", rule)
        if self.mode is Mode.PLAN and kind not in PLAN_KINDS:
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

    def _mode_allows(self, part: _Part, kind: ToolKind) -> bool:
        """The mode's default for a part no rule allowed."""
        if part.check is not None or part.url is not None:
            return False  # commands and fetches always need a rule (or bypass)
        if not part.is_path:
            return kind in PLAN_KINDS or (kind is ToolKind.FILE_EDIT and self.mode is Mode.ACCEPT_EDITS)
        if part.path is None or not paths.is_within(part.path, self.workspace):
            return False  # outside the workspace, or unknown: ask
        if not part.writes:
            return True
        protected = any(paths.is_within(part.path, root) for root in self.protected)
        return self.mode is Mode.ACCEPT_EDITS and not protected

    async def narrowest_rules(self, tool: str, args: Mapping[str, Any], traits: ToolTraits = UNDECLARED) -> list[str]:
        """The allow rules an "always" answer should save: the narrowest that cover this call.

        Empty when no rule can cover it (a script with a hazard runs once, never "always").
        """
        names = traits.rules
        if not names:
            return []
        argument = traits.argument(args)
        if traits.command is not None:
            return await self._narrowest_bash(argument or "")
        if traits.path is not None and names[0] in PATH_RULES:
            return [f"{names[0]}({await self._path_specifier(argument or '.')})"]
        if traits.url is not None:
            host = _host(argument or "")
            return [f"{names[0]}(domain:{host})"] if host else []
        return [names[0]]

    async def _narrowest_bash(self, command: str) -> list[str]:
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
            rules.append(f"{names[0]}({await self._path_specifier(redirect.target)})")
        return list(dict.fromkeys(rules))

    async def _path_specifier(self, path: str) -> str:
        """A rule path naming exactly this file: `/src/a.py` (workspace), `~/…` or `//abs/…`."""
        _, resolved = await self.resolve(path)
        for root, prefix in ((self.workspace, "/"), (self.home, "~/")):
            if paths.is_within(resolved, root):
                return prefix + _escape(posixpath.relpath(resolved, root))
        return "/" + _escape(resolved)


def _host(url: str) -> str | None:
    from urllib.parse import urlsplit

    try:
        return urlsplit(url).hostname
    except ValueError:
        return None


def _escape(path: str) -> str:
    """Escape gitignore's special characters so the rule names this one path."""
    return "".join("\\" + c if c in "*?[]!#\\" else c for c in path)
