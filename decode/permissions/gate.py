"""The Permission Gate: before a tool runs, decide allow, ask or deny — and say which rule decided.

The order never changes: a deny rule wins, then an ask rule, then allow rules, then the mode's
default. A request is judged part by part (each command of a bash script, each file it
redirects to, the file a tool reads or edits): it is allowed only if every part is allowed, and a
deny on any part denies the whole. A bash script with a hazard (`$(…)`, `eval`, `curl | sh`,
text the parser cannot read) is never allowed by a rule: it asks, unless the mode is `bypass`.

Files that hold secrets (`.env`, `.env.*` and the names `DECODE_SECRET_FILES` adds) ask before
any tool reads or writes them, in every mode, unless an allow rule names them (`Read(.env)`); so
does a bash command whose words name one (`cat .env`, `grep KEY .env`, `dd if=.env`). A word that
names a file a Read deny or ask rule covers asks too (it is an argument, not a redirection: the
program may or may not read it), and so does one in a Protected Path (`.git` at any depth,
`.decode`, `.claude`: `decode.permissions.protected`). No allow rule lets a write into one
through unless the rule spells the folder.

The gate only decides; front ends do the asking (the REPL prompts, `decode run` refuses).
"""

import fnmatch
import os
import posixpath
import re
import shlex
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from decode.config.harness_home import HARNESS_DIR
from decode.entities.tools import UNDECLARED, ToolKind, ToolTraits
from decode.permissions import paths, plain_names
from decode.permissions.command_patterns import command_pattern
from decode.permissions.commands import Check, CommandAnalysis, analyse_command
from decode.permissions.foreign_shells import FOREIGN
from decode.permissions.launchers import HIDDEN
from decode.permissions.matching import RuleScreen, covers
from decode.permissions.options import cached_deny_matches
from decode.permissions.prefixes import command_prefix
from decode.permissions.project_trust import OtherGrant
from decode.permissions.protected import WHY as _PROTECTED
from decode.permissions.protected import git_dir_of, is_protected, spells_protected
from decode.permissions.readonly import ReadOnly, judge
from decode.permissions.rules import (
    NETWORK_RULE,  # [lesson 14]
    PATH_RULES,
    REDIRECT_READ_RULES,
    REDIRECT_WRITE_RULES,
    command_matches,
    dns_name,
    domain_matches,
    is_rule_host,
    tool_matches,
)
from decode.permissions.settings_files import PermissionSettings, SettingsProblem, load_permission_settings
from decode.permissions.shell import TOO_DEEP, Glob, globs_overlap
from decode.permissions.types import Decision, Mode, Rule, RuleSource, Verdict
from decode.permissions.written_files import written_files
from decode.processes.local import LocalExecutor, local_realpath

Realpath = Callable[[Path], Awaitable[Path]]
"""How paths are resolved: the executor's `realpath`, the same function the tools use."""

# Kinds that run in plan mode: they read, or touch nothing outside the conversation.
PLAN_KINDS = frozenset({ToolKind.READ_ONLY, ToolKind.SIDE_EFFECT_FREE})
DEFAULT_SECRET_FILES = (".env", ".env*", "*.env")  # `.env.local`, `.envrc` (direnv), `prod.env`
"""Files that hold secrets whatever the settings say; `DECODE_SECRET_FILES` adds more."""
_MAX_RESOLVED_WORDS = 64  # words of one bash command resolved through symlinks; the rest by name
_SECRET = "a file that holds secrets (.env, .env.*, DECODE_SECRET_FILES): only an allow rule naming it lets it through"
# A word may name a file the program reads or writes: Read, Edit and Write denies all make it ask.
_WORD_RULES = (*REDIRECT_READ_RULES, *REDIRECT_WRITE_RULES)
_UNKNOWN_COMMAND = Check("a command only known at run time", ((None,),), ((None,),))

PLAN_GUIDANCE = (
    "plan mode: decode may read and search but not change anything. Do not try another way: "
    "present your plan to the user; they switch the mode when they want it carried out."
)


@dataclass(slots=True)  # not frozen (nothing changes one): a frozen __init__ costs 4x, and there is one per word
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
    named: str | None = None  # a word of a bash command that may name this file (as written)
    by_command: bool = False  # a file a command writes (`tee a`): its rules deny or ask, the command's allows
    sensitive: str | None = None  # why only an allow rule naming it lets it through
    read_only: str | None = None  # a command of the built-in read-only list: why it may run
    not_read_only: str | None = None  # a listed command used in a way that is not read-only: why
    subject: str | None = None  # what a rule's specifier names exactly (the agent a subagent runs)  # [lesson 12]


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
        secret_files: Iterable[str] = (),
    ) -> None:
        self.mode = mode
        self.workspace = os.path.realpath(workspace)
        self.home = os.path.realpath(home if home is not None else Path.home())
        # Without an executor's (`decode permissions`), the local executor's resolution.
        self.realpath: Realpath = realpath or local_realpath
        # The local executor resolves with os.path.realpath: the gate can do it without pathlib,
        # and below the (already real) workspace with a stat per component (it runs per word).
        self._local = (
            self.realpath is local_realpath or getattr(self.realpath, "__func__", None) is LocalExecutor.realpath
        )
        # Settings files and git's hooks/config run or grant things: no mode edits them unasked.
        # Besides these, every `.git`, `.decode` and `.claude` on the way (`protected.is_protected`).
        self.protected = (
            os.path.join(self.workspace, HARNESS_DIR.name),
            os.path.join(self.workspace, ".git"),
            os.path.join(self.home, HARNESS_DIR.name),
            os.path.join(self.home, ".claude"),
            *filter(None, [git_dir_of(self.workspace)]),  # where a `.git` file points
        )
        # The same folders through symlinks, as they are now (a link cannot hide them).
        self.protected = tuple(dict.fromkeys([*self.protected, *map(os.path.realpath, self.protected)]))
        self._below_protected = tuple(root.rstrip("/") + "/" for root in self.protected)  # one startswith for all
        self.protected_around: tuple[str, ...] = ()  # protected except inside the workspace  # [lesson 14]
        self.secret_files = tuple(dict.fromkeys([*DEFAULT_SECRET_FILES, *secret_files]))
        self._secret_names = [p for p in self.secret_files if "/" not in p.strip("/")]
        self._secret_paths = [p for p in self.secret_files if "/" in p.strip("/")]
        # Case-insensitive: on macOS and Windows file systems `.ENV` is `.env`.
        names = "|".join(f"(?:{fnmatch.translate(p)})" for p in self._secret_names) or "(?!)"
        self._secret_name = re.compile(names, re.IGNORECASE)
        self._rules: dict[Decision, list[Rule]] = {action: [] for action in Decision}
        self._governing: dict[tuple[Decision, tuple[str, ...]], list[Rule]] = {}
        self._screens: dict[tuple[tuple[str, ...], tuple[str, ...]], RuleScreen] = {}
        self.add_rules(rules)
        self.problems: list[SettingsProblem] = []  # what the settings files got wrong (from_settings)
        self.mode_source: RuleSource | None = None  # the file that set the mode, if one did
        self.settings: PermissionSettings | None = None  # what the files said (from_settings)
        # [lesson 12]
        self.read_only = False
        """A read-only agent's gate: a call that would change something is denied, not asked; of
        commands, only those of the read-only list run."""
        self.fence: PermissionGate | None = None
        """A subagent's gate: its parent's, whose verdict on the same call this one never loosens."""
        self.confined: dict[str, list[Rule]] = {}
        """Tools an agent may call only as its allow rules say (`tools: Bash(git diff:*)`): by name."""
        # [/lesson 12]
        # [lesson 14]
        self.network_isolated = False
        """Commands run in a sandbox without network: one that asks for it needs a `Network` rule."""
        # [/lesson 14]

    @classmethod
    def from_settings(
        cls,
        workspace: Path,
        mode: Mode | None = None,
        home: Path | None = None,
        realpath: Realpath | None = None,
        secret_files: Sequence[str] | None = None,
        scope: Path | None = None,  # [lesson 14]
        trust_project: bool = False,
        other_grants: Sequence[OtherGrant] = (),
    ) -> "PermissionGate":
        """A gate with the rules of the settings files; `gate.problems` lists what was skipped.

        `trust_project`: the repository's own allow rules and mode are in force for this gate even
        if the user has not trusted them (`--trust-project-settings`); `other_grants`: what the
        repository's agent files grant, trusted with its settings as one (`decode.agents.trust`).

        `secret_files` defaults to the `DECODE_SECRET_FILES` setting (a bad value raises
        `decode.config.loading.ConfigError`).
        """
        if secret_files is None:
            from decode.config.loading import load_settings

            secret_files = load_settings().secret_files
        loaded = load_permission_settings(workspace, home, trust_project=trust_project, other_grants=other_grants)
        default = mode or loaded.default_mode or Mode.DEFAULT
        # [lesson 14]
        # `scope`: where paths are judged when it is not `workspace`, whose settings files are read
        # (a `--repo` clone, its rules the Harness Home's).
        where = scope or workspace
        gate = cls(loaded.rules, default, workspace=where, home=home, realpath=realpath, secret_files=secret_files)
        if scope is not None:  # the Harness Home's `.decode/` stays protected, around the clone in it
            gate.protected_around = (os.path.join(os.path.realpath(workspace), HARNESS_DIR.name),)
        # [before lesson 14]
        # gate = cls(
        #     loaded.rules, default, workspace=workspace, home=home, realpath=realpath, secret_files=secret_files
        # )
        # [/lesson 14]
        gate.problems = loaded.problems
        gate.mode_source = None if mode else loaded.mode_source
        gate.settings = loaded
        return gate

    @property
    def rules(self) -> list[Rule]:
        """Every rule in force: denies, then asks, then allows (file order within each)."""
        return [*self._rules[Decision.DENY], *self._rules[Decision.ASK], *self._rules[Decision.ALLOW]]

    def add_rules(self, rules: Iterable[Rule]) -> None:
        """Put more rules in force (an "always" answer adds its allow rules here)."""
        for rule in rules:
            self._rules[rule.action].append(rule)
        self._governing.clear()
        self._screens.clear()

    def _governing_rules(self, action: Decision, names: tuple[str, ...]) -> list[Rule]:
        """The rules of `action` that name a tool answering to `names` (cached: the gate runs often)."""
        key = (action, names)
        found = self._governing.get(key)
        if found is None:
            found = [r for r in self._rules[action] if any(tool_matches(r, name) for name in names)]
            self._governing[key] = found
        return found

    def _screened(self, part: "_Part", asks: tuple[str, ...], denies: tuple[str, ...]) -> Sequence[Rule]:
        """The ask rules for `asks`, then the deny rules for `denies`, that may cover `part`: none
        when a file's `RuleScreen` rules them all out (they then need not be walked one by one)."""
        screen = self._screens.get((asks, denies))
        if screen is None:
            rules = [*self._governing_rules(Decision.ASK, asks), *self._governing_rules(Decision.DENY, denies)]
            screen = self._screens[asks, denies] = RuleScreen(rules, self.workspace, self.home)
        if part.is_path and part.path is not None:
            return screen.rules if screen.may_cover(part.path, part.written, broad=True, searches=part.searches) else ()
        return screen.rules

    # [lesson 12]
    def fenced(self, mode: Mode, *, read_only: bool = False) -> "PermissionGate":
        """A subagent's gate: these rules (shared, so an "always" answered for it holds here too),
        its own mode and read-only promise, and this gate as its Permission Fence."""
        child = PermissionGate(
            mode=mode,
            workspace=Path(self.workspace),
            home=Path(self.home),
            realpath=self.realpath,
            secret_files=self.secret_files,
        )
        child._rules, child._governing, child._screens = self._rules, self._governing, self._screens
        child.read_only, child.fence = read_only, self
        child.network_isolated = self.network_isolated  # [lesson 14]
        return child

    async def check(self, tool: str, args: Mapping[str, Any], traits: ToolTraits = UNDECLARED) -> Verdict:
        """Judge one call of `tool` with `args` (as the model sent them), by the tool's traits.

        A read-only gate denies a call that would change something; a fenced gate's verdict is
        never looser than its fence's on the same call (a parent's deny, ask or plan mode holds).
        """
        verdict = await self._judge(tool, args, traits)
        if verdict.decision is Decision.DENY:
            return verdict
        if self.read_only and traits.command is None and traits.kind in (ToolKind.FILE_EDIT, ToolKind.OTHER):
            return Verdict(Decision.DENY, f"{tool}: {READ_ONLY_AGENT}")
        if (only := self.confined.get(tool)) and not await self._confined_to(only, tool, args, traits):
            return Verdict(Decision.DENY, f"{tool}: this agent may use it only as {', '.join(r.text for r in only)}")
        if self.fence is not None:
            outer = await self.fence.check(tool, args, traits)
            if _STRICTNESS[outer.decision] > _STRICTNESS[verdict.decision]:
                return Verdict(outer.decision, f"{outer.reason} (the parent agent's permissions)", outer.rule)
        return verdict

    async def _confined_to(self, rules: list[Rule], tool: str, args: Mapping[str, Any], traits: ToolTraits) -> bool:
        """Does one of `rules` allow this call (a read-only command may go with it)?"""
        probe = PermissionGate(
            rules, workspace=Path(self.workspace), home=Path(self.home), realpath=self.realpath, secret_files=()
        )
        verdict = await probe._judge(tool, args, traits)
        return verdict.decision is Decision.ALLOW and verdict.rule is not None

    async def _judge(self, tool: str, args: Mapping[str, Any], traits: ToolTraits = UNDECLARED) -> Verdict:
        """The verdict of this gate's own rules and mode."""
        if traits is UNDECLARED:  # a tool that says nothing about itself: nothing proves it harmless
            return self._finish([], [f"{tool!r} declares no traits, so no rule can name it"], traits.kind)
        names = traits.rules
        argument = traits.argument(args)
        if traits.command is not None:
            # [lesson 14]
            return await self._check_bash(argument or "", network=self._wants_network(args, traits))
            # [before lesson 14]
            # return await self._check_bash(argument or "")
            # [/lesson 14]
        if traits.path is not None:
            writes = traits.kind is ToolKind.FILE_EDIT
            part = await self._path_part(argument or ".", names, writes=writes, searches=traits.searches)
            return self._finish([part], [], traits.kind)
        if traits.url is not None:
            return self._finish([_Part(f"fetch {argument}", names, url=argument or "")], [], traits.kind)
        subject = args.get(traits.subject) if traits.subject is not None else None
        return self._finish([_Part(tool, names, subject=subject if isinstance(subject, str) else "")], [], traits.kind)

    # [before lesson 12]
    # async def check(self, tool: str, args: Mapping[str, Any], traits: ToolTraits = UNDECLARED) -> Verdict:
    #     """Judge one call of `tool` with `args` (as the model sent them), by the tool's traits."""
    #     if traits is UNDECLARED:  # a tool that says nothing about itself: nothing proves it harmless
    #         return self._finish([], [f"{tool!r} declares no traits, so no rule can name it"], traits.kind)
    #     names = traits.rules
    #     argument = traits.argument(args)
    #     if traits.command is not None:
    #         return await self._check_bash(argument or "")
    #     if traits.path is not None:
    #         writes = traits.kind is ToolKind.FILE_EDIT
    #         part = await self._path_part(argument or ".", names, writes=writes, searches=traits.searches)
    #         return self._finish([part], [], traits.kind)
    #     if traits.url is not None:
    #         return self._finish([_Part(f"fetch {argument}", names, url=argument or "")], [], traits.kind)
    #     return self._finish([_Part(tool, names)], [], traits.kind)
    # [/lesson 12]
    # [lesson 14]
    def _wants_network(self, args: Mapping[str, Any], traits: ToolTraits) -> bool:
        """Does this call ask for a network its sandbox would otherwise not give it?"""
        return self.network_isolated and traits.network is not None and args.get(traits.network) is True

    # [/lesson 14]
    async def _check_bash(
        self,
        command: str,
        network: bool = False,  # [lesson 14]
    ) -> Verdict:
        analysis = _analyse(command)
        seen: dict[str, plain_names.Looked] = {}  # words resolved once per check (the list's, then as words)
        parts = [await self._command_part(check, seen) for check in analysis.checks]
        # [lesson 14]
        if network:  # each command needs the network granted too: a Network rule, never the read-only list
            # First, so the question the user answers says it grants the network.
            parts[:0] = [_Part(f"network for {check.text}", (NETWORK_RULE,), check=check) for check in analysis.checks]
        # [/lesson 14]
        if analysis.opaque and self.mode is Mode.BYPASS:
            # Something runs that no one can name, and no hazard asks in bypass: a Bash deny may match it.
            parts.append(_Part(_UNKNOWN_COMMAND.text, ("Bash",), check=_UNKNOWN_COMMAND))
        for redirect in analysis.redirects:
            names = REDIRECT_WRITE_RULES if redirect.writes else REDIRECT_READ_RULES
            if redirect.target is None:
                parts.append(_Part("a file named at run time", names, writes=redirect.writes, is_path=True))
            else:
                parts.append(await self._path_part(redirect.target, names, writes=redirect.writes))
        for index, word in enumerate(analysis.files):
            parts.append(await self._word_part(word, resolve=index < _MAX_RESOLVED_WORDS, seen=seen))
        written = dict.fromkeys(f for c in analysis.checks for form in c.block_forms for f in written_files(form))
        for target in list(written)[:_MAX_RESOLVED_WORDS]:
            part = await self._path_part(target, REDIRECT_WRITE_RULES, writes=True)
            parts.append(replace(part, by_command=True))
        hazards = list(analysis.hazards)
        if len(analysis.files) > _MAX_RESOLVED_WORDS:
            # Past the limit a word is judged by its name: a symlink among them could name a secret file.
            hazards.append(f"it names more than {_MAX_RESOLVED_WORDS} files, too many to follow each one")
        if not command.strip():
            hazards.append("an empty command")
        elif not analysis.checks:
            hazards.append("it runs no command a rule could allow, and nothing proves it harmless")
        foreign = next((h for h in analysis.hazards if h.startswith((FOREIGN, HIDDEN))), None)
        if foreign and (denies := self._governing_rules(Decision.DENY, ("Bash",))):  # its string could be denied
            return Verdict(Decision.DENY, f"{foreign}, and it could run what {denies[0]} denies", denies[0])
        # [lesson 12]
        if self.read_only and (why := _changes_something(parts, hazards)) is not None:
            return Verdict(Decision.DENY, f"{why} ({READ_ONLY_AGENT})")
        # [/lesson 12]
        return self._finish(parts, hazards, ToolKind.OTHER)

    async def _command_part(self, check: Check, seen: dict[str, plain_names.Looked]) -> _Part:
        """A command of a bash script; `read_only` says whether the built-in list lets it run."""
        found = judge(check.allow_forms[0])  # as written: no wrapper lends it the list
        if not isinstance(found, ReadOnly):
            return _Part(check.text, ("Bash",), check=check, not_read_only=found)
        why = await self._outside_read_only(found, seen)
        if why is not None:
            return _Part(check.text, ("Bash",), check=check, not_read_only=why)
        return _Part(check.text, ("Bash",), check=check, read_only=found.name)

    async def _outside_read_only(self, found: ReadOnly, seen: dict[str, plain_names.Looked]) -> str | None:
        """Why a listed command may still not run on the list: a file outside the project, a
        folder `rg` would search all of, a project git could take for a bare repository."""
        if len(found.paths) > _MAX_RESOLVED_WORDS:
            return f"{found.name}: too many files to check"
        if found.git and self._may_pass_for_a_repository():
            return f"{found.name}: git may take the project for a bare repository (a HEAD file, or no local look)"
        for path in found.paths:
            written, real, folder = seen[path] = seen.get(path) or await self.resolve(path)
            if not (paths.is_within(written, self.workspace) and paths.is_within(real, self.workspace)):
                return f"{found.name} names {path}, outside the project"
            if self._is_secret(written, real):
                return f"{found.name} reads {path}, a file that holds secrets"
            if not found.folders and (self._may_be_folder(real) if folder is None else folder):
                return f"{found.name} would search every file of the folder {path}"
        return None

    async def resolve(self, path: str) -> plain_names.Looked:
        """A path as written (absolute, normalised) and the real file it names (symlinks followed
        before `..`, as the kernel does: `link/../x` is beside the link's target), both judged; and
        whether it is a folder, when one `lstat` of a plain name told (`plain_names`; else None)."""
        if self._local and (found := plain_names.look(self.workspace, path)) is not None:
            return found
        written = paths.absolute(path, self.workspace, self.home)
        raw = paths.joined(path, self.workspace, self.home)
        try:
            real = paths.local_real(raw, self.workspace) if self._local else str(await self.realpath(Path(raw)))
        except (OSError, ValueError):  # a NUL byte, a loop, an unreadable folder: judge it as written
            real = written
        return written, real, None

    async def hidden(self, paths: Sequence[Path]) -> set[Path]:
        """The files a search (`grep`, `glob`) found that it must not show: the `SearchFilter` of
        the tools. A file is hidden when a deny (or an ask) rule for reading covers it, or when it
        holds secrets and no allow rule names it. A search was allowed as a whole; these rules
        still hold for each file inside it."""
        hidden: set[Path] = set()
        for path in paths:
            part = await self._path_part(str(path), ("Grep", "Read"), writes=False)
            rules = self._screened(part, part.rule_names, part.rule_names)  # a deny or an ask hides it
            if any(self._matches(rule, part, broad=True) is not False for rule in rules):
                hidden.add(path)
            if part.sensitive is not None and not self._named_by_allow(part, [part]):
                hidden.add(path)
        return hidden

    # [lesson 10]
    def allows_private(self, host: str) -> bool:
        """Does an allow rule name `host` (`WebFetch(domain:localhost)`)? Only then does
        `web_fetch`'s SSRF Guard reach its private or loopback addresses: the `HostAllowance`
        of the tools. A bare `WebFetch` allow names no host, and a deny still wins."""
        url = f"http://{host}/"
        named = [r for r in self._governing_rules(Decision.ALLOW, ("WebFetch",)) if r.specifier is not None]
        denied = self._governing_rules(Decision.DENY, ("WebFetch",))
        return any(domain_matches(r.specifier, url) for r in named) and not any(
            domain_matches(r.specifier, url) for r in denied
        )

    def denies_host(self, host: str) -> bool:
        """Does a `WebFetch` deny rule cover `host`? `web_fetch` asks it of every redirect hop:
        the gate judged only the URL the model gave."""
        url = f"http://{host}/"
        return any(domain_matches(r.specifier, url) for r in self._governing_rules(Decision.DENY, ("WebFetch",)))

    # [/lesson 10]
    def is_secret(self, path: str) -> bool:
        """Does this absolute path name a file that holds secrets? For a pattern (`.e*`): could it?"""
        name = path.rpartition("/")[2]  # `posixpath.basename`, without its checks
        if isinstance(path, Glob):
            return any(globs_overlap(name.lower(), secret.lower()) for secret in self._secret_names)
        if self._secret_name.fullmatch(name):
            return True
        if not self._secret_paths:  # the usual case: names only
            return False
        return any(paths.compile_pattern(p, self.workspace, self.home).matches(path) for p in self._secret_paths)

    def _is_secret(self, written: str, real: str) -> bool:
        """Does the file hold secrets, by its name as written or its real one (once when the same)?"""
        return self.is_secret(written) or (real is not written and not _same(written, real) and self.is_secret(real))

    def _may_pass_for_a_repository(self) -> bool:
        """Could git read the project itself as a bare repository (and run what its `config` says)?"""
        return not self._local or os.path.lexists(os.path.join(self.workspace, "HEAD"))

    def _may_be_folder(self, path: str) -> bool:
        """Could a word name a folder (which a program may read all of)? Locally: is it one."""
        return not self._local or isinstance(path, Glob) or os.path.isdir(path)

    def _protected(self, *candidates: str | None) -> bool:
        # [lesson 14]
        # A `--repo` clone lives in the Harness Home's `.decode/`: protected around it, not in it.
        for root in self.protected_around:
            if any(
                c is not None and paths.is_within(c, root) and not paths.is_within(c, self.workspace)
                for c in candidates
            ):
                return True
        # [/lesson 14]
        for c in candidates:  # a loop, not `any(…)`: this runs for every word of a command
            if c is not None and (is_protected(c, self.workspace) or c in self.protected):
                return True
            if c is not None and c.startswith(self._below_protected):
                return True
        return False

    async def _path_part(self, path: str, names: tuple[str, ...], *, writes: bool, searches: bool = False) -> _Part:
        written, real, _ = await self.resolve(path)
        verb = "write" if writes else "search" if searches else "read"
        secret = self._is_secret(written, real)
        protected = writes and self.mode is not Mode.BYPASS and self._protected(written, real)
        return _Part(
            f"{verb} {path}",
            names,
            path=real,
            written=written,
            writes=writes,
            searches=searches,
            is_path=True,
            sensitive=_SECRET if secret else _PROTECTED if protected else None,
        )

    async def _word_part(self, word: str, *, resolve: bool, seen: dict[str, plain_names.Looked]) -> _Part:
        """A word of a bash command that may name a file (`cat .env`): judged like a read of it."""
        if resolve:
            written, real, folder = seen.get(word) or await self.resolve(word)
        else:
            written = real = paths.absolute(word, self.workspace, self.home)
            folder = None
        if isinstance(word, Glob):
            written, real, folder = Glob(written), Glob(real), None
        sensitive = None
        pattern = not isinstance(written, Glob) and ("*" in word or "?" in word or "[" in word)  # `find -name '.env*'`
        if self._is_secret(written, real) or (pattern and self.is_secret(Glob(written))):
            sensitive = _SECRET
        elif self.mode is not Mode.BYPASS and self._protected(written, None if _same(written, real) else real):
            sensitive = _PROTECTED  # as for the file tools: bypass writes there too
        return _Part(
            f"names {word}",
            _WORD_RULES,
            path=real,
            written=written,
            searches=self._may_be_folder(real) if folder is None else folder,  # `grep -r x d`: a rule covers all of it
            is_path=True,
            named=word,
            sensitive=sensitive,
        )

    def _finish(self, parts: list[_Part], hazards: list[str], kind: ToolKind) -> Verdict:
        """Apply the fixed order: deny, plan mode, ask, secrets, bypass, hazards, allow, the mode's default."""
        for part in parts:
            if part.named is not None:
                continue  # an argument may not be read at all: it asks (below), it never denies
            for rule in self._governing_rules(Decision.DENY, part.rule_names):
                if self._matches(rule, part, broad=True):
                    return Verdict(Decision.DENY, f"{part.label}: denied by {rule}", rule)
        if self.mode is Mode.PLAN and kind not in PLAN_KINDS:
            return Verdict(Decision.DENY, PLAN_GUIDANCE)
        for part in parts:
            # A word may be written or only read: Edit denies count for it, Edit asks do not.
            asks = REDIRECT_READ_RULES if part.named else part.rule_names
            for rule in self._screened(part, asks, part.rule_names):
                match = self._matches(rule, part, broad=True)
                if part.named is not None and match:
                    return Verdict(Decision.ASK, f"{part.label}, a file {rule.action.value} rule {rule} covers", rule)
                if match is None and rule.action is Decision.DENY:
                    return Verdict(Decision.ASK, f"{part.label}: might match deny rule {rule}", rule)
                if match:  # in every mode, bypass included: the user who wrote it wants the question
                    return Verdict(Decision.ASK, f"{part.label}: ask rule {rule}", rule)
        for part in parts:
            if part.sensitive is not None and not self._named_by_allow(part, parts):
                return Verdict(Decision.ASK, f"{part.label}: {part.sensitive}")
        if self.mode is Mode.BYPASS:
            return Verdict(Decision.ALLOW, "bypass mode: everything not denied runs")
        if hazards:
            return Verdict(Decision.ASK, "; ".join(hazards))
        used: Rule | None = None
        read_only: list[str] = []
        for part in parts:
            if part.named is not None or part.by_command:
                continue  # words need no rule of their own: the command's rule covers them
            allows = self._governing_rules(Decision.ALLOW, part.rule_names)
            rule = next((r for r in allows if self._matches(r, part, broad=False)), None)
            if rule is not None:
                used = used or rule  # report the first part's rule: usually the command itself
            elif part.read_only is not None and self.mode in (Mode.DEFAULT, Mode.ACCEPT_EDITS):
                read_only.append(part.read_only)
            elif not self._mode_allows(part, kind):
                why = f" ({part.not_read_only}, so it is not on the read-only list)" if part.not_read_only else ""
                return Verdict(Decision.ASK, f"{part.label}: no rule allows it in {self.mode} mode{why}")
        if used is not None:
            return Verdict(Decision.ALLOW, f"allowed by {used}", used)
        if read_only:
            names = ", ".join(dict.fromkeys(read_only))
            return Verdict(Decision.ALLOW, f"read-only ({names}): on decode's built-in list, {self.mode} mode runs it")
        return Verdict(Decision.ALLOW, f"{self.mode} mode allows {kind} tools here")

    def _named_by_allow(self, part: _Part, parts: list[_Part]) -> bool:
        """Does an allow rule name this sensitive file: a path rule aimed at it, or the command's
        own Bash rule spelling the word (`Bash(cat .env)`, what "always" saves)?"""
        # A protected folder needs a rule that spells it: `Edit(**)` names no file, `Edit(**/*.sh)` no `.git`.
        names = spells_protected if part.sensitive == _PROTECTED else paths.names_a_file
        for rule in self._governing_rules(Decision.ALLOW, part.rule_names):
            if rule.specifier is not None and names(rule.specifier) and self._matches(rule, part, broad=False):
                return True
        if part.named is None and not part.by_command:
            return False
        forms = [form for p in parts if p.check is not None for form in p.check.allow_forms]
        return any(
            (part.named is None or part.named in command_pattern(rule.specifier).words)
            and any(command_matches(rule.specifier, f) for f in forms)
            for rule in self._governing_rules(Decision.ALLOW, ("Bash",))
            if rule.specifier is not None
            and rule.specifier != "*"
            and (part.sensitive != _PROTECTED or spells_protected(rule.specifier))
        )

    def _matches(self, rule: Rule, part: _Part, *, broad: bool) -> bool | None:
        """Does `rule` cover `part` (a rule governing one of its names)? None: cannot tell."""
        if rule.specifier is None:
            return True
        if part.check is not None:
            forms = part.check.block_forms if broad else part.check.allow_forms
            match = cached_deny_matches if broad else command_matches  # `rm -fr` is `rm -rf` to a deny (options.py)
            results = [match(rule.specifier, form) for form in forms]
            return True if True in results else (None if None in results else False)
        if part.is_path:
            if part.path is None:
                return None
            pattern = paths.compile_pattern(rule.specifier, self.workspace, self.home)
            return covers(pattern, part.path, part.written, broad=broad, searches=part.searches)
        if part.url is not None:
            return domain_matches(rule.specifier, part.url)
        if part.subject is not None:  # [lesson 12]
            return rule.specifier.lower() in ("*", part.subject.strip().lower())  # [lesson 12]
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
        return self.mode is Mode.ACCEPT_EDITS and not self._protected(part.path, part.written)

    async def narrowest_rules(self, tool: str, args: Mapping[str, Any], traits: ToolTraits = UNDECLARED) -> list[str]:
        """The allow rules an "always" answer should save: the narrowest that cover this call.

        Empty when no rule can cover it (a script with a hazard runs once, never "always").
        """
        names = traits.rules
        if not names:
            return []
        argument = traits.argument(args)
        if traits.command is not None:
            # [lesson 14]
            return _with_network(await self._narrowest_bash(argument or ""), self._wants_network(args, traits))
            # [before lesson 14]
            # return await self._narrowest_bash(argument or "")
            # [/lesson 14]
        if traits.path is not None and names[0] in PATH_RULES:
            return [f"{names[0]}({await self._path_specifier(argument or '.')})"]
        if traits.url is not None:
            host = _host(argument or "")
            return [f"{names[0]}(domain:{host})"] if host else []
        return [names[0]]

    async def rule_choices(
        self, tool: str, args: Mapping[str, Any], traits: ToolTraits = UNDECLARED
    ) -> list[tuple[str, ...]]:
        """What an "always" answer may save, most useful first: each choice is a set of allow rules.

        For a bash command, the first choice names what each command ran (`Bash(python3 -m pytest:*)`,
        `Bash(git log:*)`: `prefixes.command_prefix`) where that is safe, the last one the exact
        commands (`narrowest_rules`). Other tools get their narrowest rules only. Empty when no
        rule can cover the call (a script with a hazard: ADR-0021).
        """
        narrowest = await self.narrowest_rules(tool, args, traits)
        if not narrowest or traits.command is None:
            return [tuple(narrowest)] if narrowest else []
        prefixed = await self._narrowest_bash(traits.argument(args) or "", prefixes=True)
        prefixed = _with_network(prefixed, self._wants_network(args, traits))  # [lesson 14]
        return list(dict.fromkeys([tuple(prefixed), tuple(narrowest)]))

    async def _narrowest_bash(self, command: str, *, prefixes: bool = False) -> list[str]:
        analysis = _analyse(command)
        if analysis.hazards:
            return []
        rules: list[str] = []
        for check in analysis.checks:
            words = check.allow_forms[0]
            if None in words:
                return []
            exact = f"Bash({shlex.join(w for w in words if w is not None)})"
            rules.append((_prefix_rule(check) if prefixes else None) or exact)
        for redirect in analysis.redirects:
            if redirect.target is None:
                return []
            names = REDIRECT_WRITE_RULES if redirect.writes else REDIRECT_READ_RULES
            rules.append(f"{names[0]}({await self._path_specifier(redirect.target)})")
        return list(dict.fromkeys(rules))

    async def _path_specifier(self, path: str) -> str:
        """A rule path naming exactly this file: `/src/a.py` (workspace), `~/…` or `//abs/…`."""
        _, resolved, _ = await self.resolve(path)
        for root, prefix in ((self.workspace, "/"), (self.home, "~/")):
            if paths.is_within(resolved, root):
                return prefix + paths.escape(posixpath.relpath(resolved, root))
        return "/" + paths.escape(resolved)


# [lesson 14]
def _with_network(rules: list[str], network: bool) -> list[str]:
    """`rules` and, for a call that asked for the network, a `Network` rule beside each `Bash` one."""
    if not network:
        return rules
    return [*rules, *(NETWORK_RULE + rule.removeprefix("Bash") for rule in rules if rule.startswith("Bash("))]


# [/lesson 14]
# [lesson 12]
READ_ONLY_AGENT = "this agent is read-only: it runs only the commands of decode's read-only list and changes nothing"
_STRICTNESS = {Decision.ALLOW: 0, Decision.ASK: 1, Decision.DENY: 2}


def _changes_something(parts: list[_Part], hazards: list[str]) -> str | None:
    """Why a bash script is not read-only (a command off the list, a file written, a hazard), or None."""
    if hazards:
        return hazards[0]
    for part in parts:
        if part.check is not None and part.read_only is None:
            return part.not_read_only or f"{part.label} is not on the read-only list"
        if part.writes:
            return f"{part.label} writes a file"
    return None


# [/lesson 12]


def _same(written: str, real: str) -> bool:
    """Is the path as written the real one (then it is judged once)?"""
    return written is real or (written == real and type(written) is type(real))


def _analyse(command: str) -> CommandAnalysis:
    """`analyse_command`, which never raises: input too deep to follow is a hazard."""
    try:
        return analyse_command(command)
    except RecursionError:
        return CommandAnalysis((), (), (TOO_DEEP,), opaque=True)


def _prefix_rule(check: Check) -> str | None:
    """`Bash(FIRST WORDS:*)` for a command whose first words may be allowed as a prefix, if it covers it."""
    form = check.allow_forms[-1]  # the innermost: `npm test` inside `timeout 5 npm test`
    prefix = command_prefix(form)
    if prefix is None:
        return None
    specifier = f"{shlex.join(prefix)}:*"
    return f"Bash({specifier})" if command_matches(specifier, form) is True else None


def _host(url: str) -> str | None:
    """The host a `WebFetch(domain:…)` rule for `url` names, as DNS reads it; None if no rule can."""
    from urllib.parse import urlsplit

    try:
        host = dns_name(urlsplit(url).hostname or "")  # `x.org.` is `x.org`; a rule cannot end in "."
    except ValueError:
        return None
    return host if is_rule_host(host) else None
