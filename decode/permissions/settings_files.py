"""Permission rules from six settings files, in the format Claude Code uses:

    {"permissions": {"allow": ["Bash(git diff:*)"], "ask": [], "deny": ["Read(.env)"],
                     "defaultMode": "default"}}

The files and their order are `settings_layers`': Claude Code's and decode's, at the user, project
and local scopes. Rules are merged as Claude Code evaluates them: a deny anywhere stands, then an
ask anywhere, then an allow (an allow of a rule another file denies or asks is not in force, whichever
file wrote it). decode's files win on the rest: the later file's `defaultMode`
wins, but only a user's file (or `--permission-mode`) can choose `bypass`: a repository cannot
switch off its own guard. The repository's own allow rules and mode are in force only once the
user trusts them (`project_trust`); untrusted, they are kept aside in `grants`, never merged, so
they cannot outvote a user's ask either. Keys decode does not use (`env`, `model`…) are noted.

A broken file never loses its denies (ADR-0042). Broken means it cannot be read, is not JSON
(a UTF-8 BOM is fine), is nested absurdly deep or over 1 MiB, or a deny or ask rule in it cannot
be read or is hidden (`"deny"` written twice, `"Deny"`). Then its last good copy (kept in
`~/.decode/settings-cache/`) stands in for it; with none, every tool call a rule could name is
refused until the file is fixed. Either way one problem says so, with the file and line. An allow
rule or a mode that cannot be read is skipped and reported: without it, calls ask.
"""

import hashlib
import json
import logging
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from decode.config import own_files
from decode.config.harness_home import HARNESS_DIR, make_parent_dirs
from decode.config.locked_write import locked
from decode.files import write_atomic
from decode.hooks.config import project_hook_grants
from decode.permissions.project_grants import GRANTING_MODES, OtherGrant, ProjectGrants
from decode.permissions.project_trust import is_trusted
from decode.permissions.rules import RULE_NAMES, ForeignRule, RuleError, parse_rule
from decode.permissions.settings_json import BrokenFile, find_entry, line_of, parse_json, read_text
from decode.permissions.settings_layers import SettingsFile, brought, settings_files
from decode.permissions.types import Decision, Layer, Mode, Rule, RuleSource
from decode.skills.command_grants import project_command_grants

if TYPE_CHECKING:
    from decode.permissions.command_line_settings import CommandLineSettings

logger = logging.getLogger(__name__)

_ACTIONS = (Decision.ALLOW, Decision.ASK, Decision.DENY)
CACHE_DIR = "settings-cache"
"""Under `~/.decode/`: the last good copy of each settings file, out of any repository's reach."""
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_SHOWN_GRANTS = 5
# [lesson 12]
_USED = ("permissions", "$schema", "hooks")  # `hooks`: decode.hooks reads them
# [before lesson 12]
# _USED = ("permissions", "$schema")
# [/lesson 12]
_USED_PERMISSIONS = ("allow", "ask", "deny", "defaultmode")
_JSON_KINDS: dict[type, str] = {dict: "an object", list: "a list", bool: "true or false", type(None): "null"}


@dataclass(frozen=True)
class SettingsProblem:
    """Something the user should know about a settings file: where, what, and how serious.

    `warning`: something is wrong (a broken file, a skipped rule, an ignored mode). `notice`:
    nothing is wrong, but the user should know (the repository's file grants permissions).
    """

    path: Path
    line: int | None
    message: str
    level: Literal["warning", "notice"] = "warning"

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else str(self.path)
        # The text may quote a file a repository wrote: no escape sequence reaches the terminal.
        return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), f"{where}: {self.message}")


@dataclass
class PermissionSettings:
    """The effective rules of all layers, the default mode (and where it was set), the problems.

    `files`: every settings file found, lowest priority first. `grants`: what the repository's own
    files allow (and the mode they choose), in force only when `trusted`. `notes`: a file's keys
    decode does not use, once per file.
    """

    rules: list[Rule] = field(default_factory=list)
    default_mode: Mode | None = None
    mode_source: RuleSource | None = None
    problems: list[SettingsProblem] = field(default_factory=list)
    files: list[SettingsFile] = field(default_factory=list)
    grants: ProjectGrants = field(default_factory=ProjectGrants)
    trusted: bool = True
    notes: list[SettingsProblem] = field(default_factory=list)


@dataclass
class _FileRules:
    """What one settings file says, once it could be read (`path`: the file or its good copy)."""

    path: Path
    rules: list[Rule] = field(default_factory=list)
    mode: Mode | None = None
    mode_line: int | None = None
    mode_text: str = ""
    problems: list[SettingsProblem] = field(default_factory=list)
    unused: list[str] = field(default_factory=list)


def settings_paths(project: Path, home: Path | None = None) -> dict[Layer, Path]:
    """decode's own three settings files, lowest priority first (`settings_files` lists all six)."""
    home = home if home is not None else Path.home()
    return {
        Layer.USER: home / HARNESS_DIR / "settings.json",
        Layer.PROJECT: project / HARNESS_DIR / "settings.json",
        Layer.LOCAL: project / HARNESS_DIR / "settings.local.json",
    }


def load_permission_settings(
    project: Path,
    home: Path | None = None,
    *,
    trust_project: bool = False,
    other_grants: Sequence[OtherGrant] = (),
    command_line: "CommandLineSettings | None" = None,  # `--settings`, the highest layer
) -> PermissionSettings:
    """Read every settings file that exists and merge them (see the module docstring for the order).

    The repository's grants are in force when `trust_project` (`--trust-project-settings`) or
    when the user trusted them as they are now (`decode permissions trust`). `other_grants`: what
    the repository grants elsewhere (its agent files), trusted with the settings as one."""
    home = home if home is not None else Path.home()
    result = PermissionSettings()
    read: list[tuple[SettingsFile, _FileRules]] = []
    for file in settings_files(project, home):
        found = _load_file(file.layer, file.path, home, result)
        if found is None:
            continue
        result.files.append(file)
        read.append((file, found))
        if found.unused:
            message = f"holds keys decode does not use: {', '.join(found.unused)}"
            result.notes.append(SettingsProblem(file.path, None, message, level="notice"))
        if file.shared:
            _add_grants(file, found, result.grants)
    if command_line is not None:
        # `--settings`, the highest layer: read and checked when the option was taken, so never broken here.
        found = _interpret(Layer.COMMAND_LINE, command_line.path, command_line.text)
        read.append((SettingsFile(Layer.COMMAND_LINE, command_line.path), found))
        result.files.append(read[-1][0])
        result.problems.extend(found.problems)
        if found.unused:
            message = f"holds keys decode does not use: {', '.join(found.unused)}"
            result.notes.append(SettingsProblem(command_line.path, None, message, level="notice"))
    result.grants.others = list(other_grants)
    result.grants.others += project_hook_grants(result.files)  # a repository's hooks run once trusted  # [lesson 12]
    result.grants.others += project_command_grants(project)  # and its commands' allowed-tools  # [lesson 12]
    # [lesson 09]
    result.trusted = trust_project or is_trusted(project, result.grants, home)
    # [before lesson 09]
    # result.trusted = trust_project  # no Project Trust yet: only `--trust-project-settings` puts them in force
    # [/lesson 09]
    kept: dict[Decision, dict[str, Rule]] = {action: {} for action in _ACTIONS}  # rule text -> rule
    for file, found in read:
        held = file.shared and not result.trusted  # its grants wait for Project Trust
        for rule in found.rules:
            if not (held and rule.action is Decision.ALLOW):
                kept[rule.action].setdefault(rule.text, rule)  # the first file that says so is named
        if not (held and found.mode in GRANTING_MODES):
            _apply_mode(file.layer, found, result)
    # A deny or ask anywhere stands: an allow of the same rule never decides, so it is not in force.
    restricted = kept[Decision.DENY].keys() | kept[Decision.ASK].keys()
    allows = [rule for text, rule in kept[Decision.ALLOW].items() if text not in restricted]
    result.rules = [*kept[Decision.DENY].values(), *kept[Decision.ASK].values(), *allows]
    return result


def _add_grants(file: SettingsFile, found: _FileRules, grants: ProjectGrants) -> None:
    """What a file the repository brought grants: its allow rules, and its mode if it lets more run
    than `default` (accept-edits; bypass never counts, it is refused)."""
    grants.rules += [rule for rule in found.rules if rule.action is Decision.ALLOW]
    if found.mode in GRANTING_MODES:
        grants.mode, grants.mode_text = found.mode, found.mode_text
        grants.mode_source = RuleSource(file.layer, found.path, found.mode_line)


def _apply_mode(layer: Layer, found: _FileRules, result: PermissionSettings) -> None:
    if found.mode is None:
        return
    users: tuple[Layer, ...] = (Layer.USER,)  # the layers the user writes alone: they may choose bypass
    users += (Layer.COMMAND_LINE,)  # `--settings`: typed by the user for this run
    if found.mode is Mode.BYPASS and layer not in users:
        message = (
            f'"defaultMode": {found.mode_text!r} is ignored: bypass is chosen only with --permission-mode '
            "bypass or in the user's settings (~/.decode/settings.json, ~/.claude/settings.json)"
        )
        result.problems.append(SettingsProblem(found.path, found.mode_line, message))
        return
    result.default_mode = found.mode
    result.mode_source = RuleSource(layer, found.path, found.mode_line)


def repository_grants(settings: PermissionSettings | None) -> list[SettingsProblem]:
    """A notice (or none) of what the repository's own settings let run without asking: in force
    once trusted, else waiting for the user's trust. Front ends show it once at start."""
    if settings is None or not settings.grants:
        return []
    grants = settings.grants
    granted = [rule.text for rule in grants.rules[:_SHOWN_GRANTS]]
    if len(grants.rules) > _SHOWN_GRANTS:
        granted.append(f"{len(grants.rules) - _SHOWN_GRANTS} more (`decode permissions` lists them)")
    if grants.mode is not None:
        granted.append(f"defaultMode {grants.mode}")
    granted += [grant.text for grant in grants.others]
    path = grants.first_path()
    assert path is not None
    line = grants.rules[0].source.line if grants.rules and grants.rules[0].source else None
    if settings.trusted:
        message = f"this repository's settings (trusted) let these run without asking: {', '.join(granted)}"
    else:
        # [lesson 09]
        message = (
            f"this repository's settings would let these run without asking, not in force until you trust "
            f"them (decode permissions trust, or --trust-project-settings for one run): {', '.join(granted)}"
        )
        # [before lesson 09]
        # message = f"not in force (--trust-project-settings: one run), the repository grants {', '.join(granted)}"
        # [/lesson 09]
    return [SettingsProblem(path, line, message, level="notice")]


def _load_file(layer: Layer, path: Path, home: Path, result: PermissionSettings) -> _FileRules | None:
    """One layer's rules; None when it has no file. A broken file gets its stand-in (`_stand_in`)."""
    try:
        text = read_text(path)
        if text is None:
            return None
        found = _interpret(layer, path, text)
    except BrokenFile as broken:
        return _stand_in(layer, path, home, broken, result)
    result.problems.extend(found.problems)
    _keep_good_copy(home, path, text)
    return found


def _stand_in(layer: Layer, path: Path, home: Path, broken: BrokenFile, result: PermissionSettings) -> _FileRules:
    """For a broken file: its last good copy, else a deny of every rule name. Reported once."""
    copy, saved = good_copy_path(home, path), ""
    try:
        text = read_text(copy)
        found = _interpret(layer, copy, text) if text is not None else None
        saved = datetime.fromtimestamp(copy.stat().st_mtime, UTC).strftime("%Y-%m-%d %H:%M UTC")
    except (BrokenFile, OSError):
        found = None
    if found is not None:
        message = f"{broken.message}; until it is fixed, its last good copy is in force ({copy}, saved {saved})"
        result.problems.append(SettingsProblem(path, broken.line, message))
        return found
    names = ", ".join(RULE_NAMES)
    message = (
        f"{broken.message}; no good copy of it is kept, so every tool call a rule could name "
        f"({names}) is refused until it is fixed"
    )
    result.problems.append(SettingsProblem(path, broken.line, message))
    source = RuleSource(layer, path, broken.line)
    note = "refused: its settings file is broken and no good copy of it is kept"
    return _FileRules(path, rules=[Rule(Decision.DENY, name, None, source, note=note) for name in RULE_NAMES])


def _interpret(layer: Layer, path: Path, text: str) -> _FileRules:
    """The rules and mode a file's text says; `BrokenFile` when a restriction in it cannot be read."""
    data = parse_json(text)
    if not isinstance(data, dict):
        raise BrokenFile(1, "the file must hold a JSON object")
    for key in data:  # `"Permissions"` would be another feature's key, and its rules ignored
        if key != "permissions" and key.strip().lower() == "permissions":
            raise BrokenFile(line_of(text, text.find(json.dumps(key))), f'{json.dumps(key)} is not "permissions"')
    permissions = data.get("permissions", {})
    if not isinstance(permissions, dict):
        raise BrokenFile(line_of(text, text.find('"permissions"')), '"permissions" must be an object')
    found = _FileRules(path)
    # Claude Code's other keys (env, model…) are not decode's: said once, never run.
    found.unused = [key for key in data if key not in _USED]
    found.unused += [f"permissions.{key}" for key in permissions if key.strip().lower() not in _USED_PERMISSIONS]
    for key in permissions:
        spelled = next((a for a in _ACTIONS if key != a.value and key.strip().lower() == a.value), None)
        if spelled is not None:
            line = line_of(text, text.find(json.dumps(key)))
            _unreadable(found, spelled, path, line, f'{json.dumps(key)} is not "{spelled}"')
    for action in _ACTIONS:
        entries = permissions.get(action.value, [])
        key_at = text.find(f'"{action.value}"')
        if not isinstance(entries, list):
            _unreadable(found, action, path, line_of(text, key_at), f'"{action}" must be a list of rules')
            continue
        cursor = max(key_at, 0)
        for entry in entries:
            cursor = find_entry(text, entry, cursor)
            line = line_of(text, cursor)
            if not isinstance(entry, str):
                what = _JSON_KINDS.get(type(entry), "a number")
                _unreadable(found, action, path, line, f"an entry of {action} is {what}, not a rule")
                continue
            try:
                found.rules.append(parse_rule(entry, action, RuleSource(layer, path, line)))
            except ForeignRule as exc:  # a tool decode does not have: a deny of it holds already
                found.problems.append(SettingsProblem(path, line, f"{exc}; skipped"))
            except RuleError as exc:
                _unreadable(found, action, path, line, str(exc))
    if "defaultMode" in permissions:
        raw = permissions["defaultMode"]
        found.mode_line = line_of(text, text.find('"defaultMode"'))
        try:
            if not isinstance(raw, str):
                raise ValueError('"defaultMode" must be a string')
            found.mode, found.mode_text = Mode.parse(raw), raw
        except ValueError as exc:
            found.problems.append(SettingsProblem(path, found.mode_line, f"{exc}; ignored"))
    return found


interpret_settings = _interpret  # what `--settings` is checked with, before anything starts


def _unreadable(found: _FileRules, action: Decision, path: Path, line: int | None, message: str) -> None:
    """An entry that cannot be read: an allow is skipped (the call asks instead); a deny or ask
    could have forbidden anything, so the whole file is broken."""
    if action is Decision.ALLOW:
        found.problems.append(SettingsProblem(path, line, f"{message}; skipped"))
        return
    raise BrokenFile(line, f"{message}; a {action} rule that cannot be read could forbid anything")


def good_copy_path(home: Path, path: Path) -> Path:
    """Where the last good copy of the settings file `path` is kept (one per file, by its path)."""
    digest = hashlib.sha256(os.path.abspath(path).encode("utf-8", "surrogateescape")).hexdigest()[:24]
    return home / HARNESS_DIR / CACHE_DIR / f"{digest}-{path.name}"


def _keep_good_copy(home: Path, path: Path, text: str) -> None:
    """Save `text` as the file's last good copy (0600, in a 0700 folder) when it changed."""
    copy = good_copy_path(home, path)
    data = text.encode("utf-8")
    try:
        if copy.is_file() and copy.read_bytes() == data:
            return
        make_parent_dirs(copy)
        os.chmod(copy.parent, 0o700)
        ignore = copy.parent / ".gitignore"
        if not ignore.exists():  # a home directory kept in git (dotfiles) never commits these
            ignore.write_text("# Written by decode: copies of settings files, never committed.\n*\n")
        write_atomic(copy, data, mode=0o600)
        os.chmod(copy, 0o600)
    except (OSError, UnicodeEncodeError) as exc:
        logger.info("could not keep a good copy of %s: %s", path, exc)


def add_allow_rules(project: Path, rules: list[str]) -> Path:
    """Append allow rules to the local settings file (creating it), keeping everything else in it.

    Used by the "always" approval. Raises `ValueError` when the file exists but is not a JSON
    object: it is never overwritten, because that would lose what the user wrote.
    """
    path = settings_paths(project)[Layer.LOCAL]
    # A file an archive brought stays the archive's: a rule added to it does not make it the user's.
    own = not path.exists() or not brought(path, Path.home())
    make_parent_dirs(path)  # a new `.decode/` gets its .gitignore first; a link out of the project is refused
    with locked(path):  # another decode saving a rule now waits: neither loses the other's (TimeoutError)
        written = _add_allow_rules(path, rules)
        if own:
            own_files.remember(path, Path.home(), written)
    logger.info("added %s to %s", ", ".join(rules), path)
    return path


def _add_allow_rules(path: Path, rules: list[str]) -> bytes:
    """Read `path`, add `rules` to its allow list, replace it (under the caller's lock); the bytes written."""
    try:
        text = read_text(path) or ""
        data = parse_json(text)
    except BrokenFile as broken:
        where = f"{path}:{broken.line}" if broken.line else str(path)
        raise ValueError(f"{where}: {broken.message}; not changed") from None
    if not isinstance(data, dict) or not isinstance(data.get("permissions", {}), dict):
        raise ValueError(f"{path}: not a settings object; not changed")
    allow = data.setdefault("permissions", {}).setdefault("allow", [])
    if not isinstance(allow, list):
        raise ValueError(f'{path}: "allow" is not a list; not changed')
    allow.extend(rule for rule in rules if rule not in allow)
    written = (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    write_atomic(path, written)
    return written
