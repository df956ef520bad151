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

The gate holds the rules and what they are judged against (the workspace, secret and protected
files); the concepts that use it are functions over it: `decision_order` (a request's `Part`s
and the fixed order), `bash_check` (the parts of a bash command), `always_rules` (what an
"always" answer saves).
"""

import fnmatch
import os
import re
import stat
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from decode.config.harness_home import HARNESS_DIR
from decode.entities.tools import UNDECLARED, ToolKind, ToolTraits
from decode.permissions import always_rules, paths, plain_names
from decode.permissions.agent_rules import subject_of
from decode.permissions.bash_check import SECRET, check_bash, same
from decode.permissions.decision_order import PLAN_GUIDANCE, PLAN_KINDS, Part, finish, matches, named_by_allow
from decode.permissions.fence import narrowed
from decode.permissions.matching import RuleScreen
from decode.permissions.network_grants import wants_network
from decode.permissions.project_grants import OtherGrant
from decode.permissions.protected import WHY as PROTECTED
from decode.permissions.protected import git_dir_of, is_protected
from decode.permissions.rules import domain_matches, tool_matches
from decode.permissions.settings_files import PermissionSettings, SettingsProblem, load_permission_settings
from decode.permissions.shell_glob import Glob, globs_overlap
from decode.permissions.turn_grants import granted
from decode.permissions.types import Decision, Mode, Rule, RuleSource, Verdict
from decode.processes.local import LocalExecutor, local_realpath

if TYPE_CHECKING:
    from decode.permissions.command_line_settings import CommandLineSettings

__all__ = ["DEFAULT_SECRET_FILES", "PLAN_GUIDANCE", "PLAN_KINDS", "PermissionGate", "Realpath"]

Realpath = Callable[[Path], Awaitable[Path]]
"""How paths are resolved: the executor's `realpath`, the same function the tools use."""

DEFAULT_SECRET_FILES = (".env", ".env*", "*.env")  # `.env.local`, `.envrc` (direnv), `prod.env`
"""Files that hold secrets whatever the settings say; `DECODE_SECRET_FILES` adds more."""


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
        self.protected_around: tuple[str, ...] = ()  # protected except inside the workspace  # [lesson 19]
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
        # [lesson 15]
        self.read_only = False
        """A read-only agent's gate: a call that would change something is denied, not asked; of
        commands, only those of the read-only list run."""
        self.fence: PermissionGate | None = None
        """A subagent's gate: its parent's, whose verdict on the same call this one never loosens."""
        self.confined: dict[str, list[Rule]] = {}
        """Tools an agent may call only as its allow rules say (`tools: Bash(git diff:*)`): by name."""
        # [/lesson 15]
        self.network_isolated = False  # a sandbox without network: asking for it needs a `Network` rule  # [lesson 17]
        self.more_roots: tuple[str, ...] = ()  # `--add-dir` folders, judged as the workspace  # [lesson 17]
        self.turn_allows: tuple[Rule, ...] = ()  # a custom command's allowed-tools, for its turn  # [lesson 12]

    @classmethod
    def from_settings(
        cls,
        workspace: Path,
        mode: Mode | None = None,
        home: Path | None = None,
        realpath: Realpath | None = None,
        secret_files: Sequence[str] | None = None,
        scope: Path | None = None,
        trust_project: bool = False,
        other_grants: Sequence[OtherGrant] = (),
        command_line: "CommandLineSettings | None" = None,  # `--settings FILE_OR_JSON`, the highest layer
    ) -> "PermissionGate":
        """A gate with the rules of the settings files; `gate.problems` lists what was skipped.

        `scope`: where paths are judged when it is not `workspace`, whose settings files are read.
        `trust_project`: the repository's own allow rules and mode are in force for this gate even
        if the user has not trusted them (`--trust-project-settings`); `other_grants`: what the
        repository's agent files grant, trusted with its settings as one (`decode.agents.trust`).

        `secret_files` defaults to the `DECODE_SECRET_FILES` setting (a bad value raises
        `decode.config.loading.ConfigError`).
        """
        if secret_files is None:
            from decode.config.loading import load_settings

            secret_files = load_settings().secret_files
        loaded = load_permission_settings(
            workspace, home, trust_project=trust_project, other_grants=other_grants, command_line=command_line
        )
        default = mode or loaded.default_mode or Mode.DEFAULT
        where = scope or workspace  # the rules are `workspace`'s; the paths they judge, `scope`'s
        gate = cls(loaded.rules, default, workspace=where, home=home, realpath=realpath, secret_files=secret_files)
        # [lesson 19]
        if scope is not None:  # a `--repo` clone: the Harness Home's `.decode/` stays protected, around it
            gate.protected_around = (os.path.join(os.path.realpath(workspace), HARNESS_DIR.name),)
        # [/lesson 19]
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

    def governing_rules(self, action: Decision, names: tuple[str, ...]) -> list[Rule]:
        """The rules of `action` that name a tool answering to `names` (cached: the gate runs often)."""
        key = (action, names)
        found = self._governing.get(key)
        if found is None:
            found = [r for r in self._rules[action] if any(tool_matches(r, name) for name in names)]
            self._governing[key] = found
        return found

    def screened(self, part: Part, asks: tuple[str, ...], denies: tuple[str, ...]) -> Sequence[Rule]:
        """The ask rules for `asks`, then the deny rules for `denies`, that may cover `part`: none
        when a file's `RuleScreen` rules them all out (they then need not be walked one by one)."""
        screen = self._screens.get((asks, denies))
        if screen is None:
            rules = [*self.governing_rules(Decision.ASK, asks), *self.governing_rules(Decision.DENY, denies)]
            screen = self._screens[asks, denies] = RuleScreen(rules, self.workspace, self.home)
        if part.is_path and part.path is not None:
            return screen.rules if screen.may_cover(part.path, part.written, broad=True, searches=part.searches) else ()
        return screen.rules

    def fenced(self, mode: Mode, *, read_only: bool = False) -> "PermissionGate":  # [lesson 15]
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
        child.settings = self.settings  # its parent's files, and their Project Trust (a repository's hooks wait for it)
        child.network_isolated = self.network_isolated  # [lesson 17]
        child.more_roots = self.more_roots  # [lesson 17]
        return child

    async def check(self, tool: str, args: Mapping[str, Any], traits: ToolTraits = UNDECLARED) -> Verdict:
        """Judge one call of `tool` with `args` (as the model sent them), by the tool's traits."""
        verdict = await self.own_verdict(tool, args, traits)
        verdict = await granted(self, verdict, tool, args, traits)  # the turn's allow rules  # [lesson 12]
        verdict = await narrowed(self, verdict, tool, args, traits)  # [lesson 15]
        return verdict

    async def own_verdict(self, tool: str, args: Mapping[str, Any], traits: ToolTraits = UNDECLARED) -> Verdict:
        """The verdict of this gate's own rules and mode."""
        if traits is UNDECLARED:  # a tool that says nothing about itself: nothing proves it harmless
            return finish(self, [], [f"{tool!r} declares no traits, so no rule can name it"], traits.kind)
        names = traits.rules
        argument = traits.argument(args)
        if traits.command is not None:
            return await check_bash(
                self,
                argument or "",
                wants_network(self, args, traits),  # [lesson 17]
            )
        if traits.path is not None:
            writes = traits.kind is ToolKind.FILE_EDIT
            part = await self.path_part(argument or ".", names, writes=writes, searches=traits.searches)
            return finish(self, [part], [], traits.kind)
        if traits.url is not None:
            return finish(self, [Part(f"fetch {argument}", names, url=argument or "")], [], traits.kind)
        part = Part(tool, names)
        part.subject = subject_of(args, traits)  # [lesson 15]
        return finish(self, [part], [], traits.kind)

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
            part = await self.path_part(str(path), ("Grep", "Read"), writes=False)
            rules = self.screened(part, part.rule_names, part.rule_names)  # a deny or an ask hides it
            if any(matches(self, rule, part, broad=True) is not False for rule in rules):
                hidden.add(path)
            if part.sensitive is not None and not named_by_allow(self, part, [part]):
                hidden.add(path)
        return hidden

    # [lesson 13]
    def allows_private(self, host: str) -> bool:
        """Does an allow rule name `host` (`WebFetch(domain:localhost)`)? Only then does
        `web_fetch`'s SSRF Guard reach its private or loopback addresses: the `HostAllowance`
        of the tools. A bare `WebFetch` allow names no host, and a deny still wins."""
        url = f"http://{host}/"
        named = [r for r in self.governing_rules(Decision.ALLOW, ("WebFetch",)) if r.specifier is not None]
        denied = self.governing_rules(Decision.DENY, ("WebFetch",))
        return any(domain_matches(r.specifier, url) for r in named) and not any(
            domain_matches(r.specifier, url) for r in denied
        )

    def denies_host(self, host: str) -> bool:
        """Does a `WebFetch` deny rule cover `host`? `web_fetch` asks it of every redirect hop:
        the gate judged only the URL the model gave."""
        url = f"http://{host}/"
        return any(domain_matches(r.specifier, url) for r in self.governing_rules(Decision.DENY, ("WebFetch",)))

    # [/lesson 13]
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

    def names_secret(self, written: str, real: str) -> bool:
        """Does the file hold secrets, by its name as written or its real one (once when the same)?"""
        return self.is_secret(written) or (real is not written and not same(written, real) and self.is_secret(real))

    def may_pass_for_a_repository(self) -> bool:
        """Could git read the project itself as a bare repository (and run what its `config` says)?"""
        return not self._local or os.path.lexists(os.path.join(self.workspace, "HEAD"))

    def may_be_folder(self, path: str) -> bool:
        """Could a word name a folder (which a program may read all of)? Locally: is it one."""
        return not self._local or isinstance(path, Glob) or os.path.isdir(path)

    def never_ends(self, path: str) -> bool:
        """Does a word name a FIFO, a socket or a device, whose read may wait or never end? Only a
        local look can say (elsewhere the command's time-out bounds it); `stat` never blocks."""
        try:
            mode = os.stat(path).st_mode if self._local and not isinstance(path, Glob) else stat.S_IFREG
        except (OSError, ValueError):
            return False
        return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))

    def in_protected(self, *candidates: str | None) -> bool:
        # [lesson 19]
        # A `--repo` clone lives in the Harness Home's `.decode/`: protected around it, not in it.
        for root in self.protected_around:
            if any(
                c is not None and paths.is_within(c, root) and not paths.is_within(c, self.workspace)
                for c in candidates
            ):
                return True
        # [/lesson 19]
        for c in candidates:  # a loop, not `any(…)`: this runs for every word of a command
            if c is not None and (is_protected(c, self.workspace) or c in self.protected):
                return True
            if c is not None and c.startswith(self._below_protected):
                return True
        return False

    async def path_part(self, path: str, names: tuple[str, ...], *, writes: bool, searches: bool = False) -> Part:
        written, real, _ = await self.resolve(path)
        verb = "write" if writes else "search" if searches else "read"
        secret = self.names_secret(written, real)
        protected = writes and self.mode is not Mode.BYPASS and self.in_protected(written, real)
        return Part(
            f"{verb} {path}",
            names,
            path=real,
            written=written,
            writes=writes,
            searches=searches,
            is_path=True,
            sensitive=SECRET if secret else PROTECTED if protected else None,
        )

    async def narrowest_rules(self, tool: str, args: Mapping[str, Any], traits: ToolTraits = UNDECLARED) -> list[str]:
        """The allow rules an "always" answer should save (`always_rules.narrowest_rules`)."""
        return await always_rules.narrowest_rules(self, tool, args, traits)

    async def rule_choices(
        self, tool: str, args: Mapping[str, Any], traits: ToolTraits = UNDECLARED
    ) -> list[tuple[str, ...]]:
        """What an "always" answer may save, most useful first (`always_rules.rule_choices`)."""
        return await always_rules.rule_choices(self, tool, args, traits)
