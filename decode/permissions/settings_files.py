"""Permission rules from three settings files, in the format Claude Code uses:

    {"permissions": {"allow": ["Bash(git diff:*)"], "ask": [], "deny": ["Read(.env)"],
                     "defaultMode": "default"}}

Layers, lowest priority first: user `~/.decode/settings.json`, project `.decode/settings.json`
(shared with the team), local `.decode/settings.local.json` (git-ignored; "always" answers are
written there). When two layers give the same rule different actions the later layer wins, except
that a deny anywhere stands. The later layer's `defaultMode` wins, but only the user's file (or
`--permission-mode`) can choose `bypass`: a repository cannot switch off its own guard. What the
project's file allows is reported, so the user knows the repository grants itself permissions.

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
import stat
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import accumulate
from pathlib import Path
from typing import Any, Literal

from decode.config.harness_home import HARNESS_DIR, make_parent_dirs
from decode.files import write_atomic
from decode.permissions.rules import RULE_NAMES, ForeignRule, RuleError, parse_rule
from decode.permissions.types import Decision, Layer, Mode, Rule, RuleSource

logger = logging.getLogger(__name__)

_ACTIONS = (Decision.ALLOW, Decision.ASK, Decision.DENY)
MAX_BYTES = 1 << 20
"""A settings file larger than this (1 MiB) is broken: real ones are a few hundred bytes."""
MAX_DEPTH = 64
"""Arrays and objects nested deeper than this make a file broken (settings need three levels)."""
CACHE_DIR = "settings-cache"
"""Under `~/.decode/`: the last good copy of each settings file, out of any repository's reach."""
_STRUCTURE = re.compile(r'["\\\[\]{}]')
_ESCAPE = re.compile(r"\\.", re.DOTALL)
_STRING = re.compile(r'"[^"]*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_SHOWN_GRANTS = 5
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
    """The effective rules of all layers, the default mode (and where it was set), the problems."""

    rules: list[Rule] = field(default_factory=list)
    default_mode: Mode | None = None
    mode_source: RuleSource | None = None
    problems: list[SettingsProblem] = field(default_factory=list)


@dataclass
class _FileRules:
    """What one settings file says, once it could be read (`path`: the file or its good copy)."""

    path: Path
    rules: list[Rule] = field(default_factory=list)
    mode: Mode | None = None
    mode_line: int | None = None
    mode_text: str = ""
    problems: list[SettingsProblem] = field(default_factory=list)


class _Broken(Exception):
    """The file cannot be used at all, so what it denies is unknown."""

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(message)
        self.line, self.message = line, message


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
    home = home if home is not None else Path.home()
    result = PermissionSettings()
    merged: dict[str, Rule] = {}  # rule text -> the allow/ask rule in force
    denies: dict[str, Rule] = {}
    paths = settings_paths(project, home)
    if os.path.realpath(paths[Layer.PROJECT]) == os.path.realpath(paths[Layer.USER]):
        del paths[Layer.PROJECT]  # started in the home directory: that file is the user's
    for layer, path in paths.items():
        found = _load_file(layer, path, home, result)
        if found is None:
            continue
        for rule in found.rules:
            if rule.action is Decision.DENY:
                denies.setdefault(rule.text, rule)
            else:
                merged.pop(rule.text, None)  # re-insert so the later layer's rule takes its place
                merged[rule.text] = rule
        _apply_mode(layer, found, result)
    result.rules = [*denies.values(), *merged.values()]
    return result


def _apply_mode(layer: Layer, found: _FileRules, result: PermissionSettings) -> None:
    if found.mode is None:
        return
    if found.mode is Mode.BYPASS and layer is not Layer.USER:
        message = (
            f'"defaultMode": {found.mode_text!r} is ignored: bypass is chosen only with --permission-mode '
            "bypass or in ~/.decode/settings.json"
        )
        result.problems.append(SettingsProblem(found.path, found.mode_line, message))
        return
    result.default_mode = found.mode
    result.mode_source = RuleSource(layer, found.path, found.mode_line)


def repository_grants(rules: Iterable[Rule], mode: Mode, mode_source: RuleSource | None) -> list[SettingsProblem]:
    """A notice (or none) of what the project's file, the repository's own, lets run without asking:
    its allow rules in force and an `accept-edits` default mode. Front ends show it once at start."""
    allows = [rule for rule in rules if rule.action is Decision.ALLOW and _is_project(rule.source)]
    granted = [rule.text for rule in allows[:_SHOWN_GRANTS]]
    if len(allows) > _SHOWN_GRANTS:
        granted.append(f"{len(allows) - _SHOWN_GRANTS} more (`decode permissions` lists them)")
    mode_granted = mode is Mode.ACCEPT_EDITS and _is_project(mode_source)
    if mode_granted:
        granted.append(f"defaultMode {mode}")
    source = allows[0].source if allows else mode_source if mode_granted else None
    if source is None:
        return []
    message = f"this repository's settings let these run without asking: {', '.join(granted)}"
    return [SettingsProblem(source.path, source.line, message, level="notice")]


def _is_project(source: RuleSource | None) -> bool:
    return source is not None and source.layer is Layer.PROJECT


def _load_file(layer: Layer, path: Path, home: Path, result: PermissionSettings) -> _FileRules | None:
    """One layer's rules; None when it has no file. A broken file gets its stand-in (`_stand_in`)."""
    try:
        text = _read_text(path)
        if text is None:
            return None
        found = _interpret(layer, path, text)
    except _Broken as broken:
        return _stand_in(layer, path, home, broken, result)
    result.problems.extend(found.problems)
    _keep_good_copy(home, path, text)
    return found


def _stand_in(layer: Layer, path: Path, home: Path, broken: _Broken, result: PermissionSettings) -> _FileRules:
    """For a broken file: its last good copy, else a deny of every rule name. Reported once."""
    copy, saved = good_copy_path(home, path), ""
    try:
        text = _read_text(copy)
        found = _interpret(layer, copy, text) if text is not None else None
        saved = datetime.fromtimestamp(copy.stat().st_mtime, UTC).strftime("%Y-%m-%d %H:%M UTC")
    except (_Broken, OSError):
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


def _read_text(path: Path) -> str | None:
    """The text of a settings file, None when there is none; `_Broken` when it cannot be read.

    Never blocks or reads without end: a FIFO, a device (a link to /dev/zero) or a directory is
    refused before reading, and at most `MAX_BYTES` are read. UTF-8 with or without a BOM is
    accepted, and UTF-16/32 as JSON detects them.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC
    try:
        fd = os.open(path, flags)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        raise _Broken(None, f"cannot be read ({exc.strerror or exc})") from None
    try:
        kind = os.fstat(fd).st_mode
        if stat.S_ISDIR(kind):
            raise _Broken(None, "is a directory, not a settings file")
        if not stat.S_ISREG(kind):
            raise _Broken(None, "is not a regular file")
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_BYTES and (chunk := os.read(fd, MAX_BYTES + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise _Broken(None, f"cannot be read ({exc.strerror or exc})") from None
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > MAX_BYTES:
        raise _Broken(None, f"is larger than {MAX_BYTES // (1 << 20)} MiB")
    encoding = json.detect_encoding(data)
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1 if encoding.startswith("utf-8") else None
        raise _Broken(line, f"is not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def _parse_json(text: str) -> Any:
    """The JSON value of a settings file's text (empty text is `{}`); `_Broken` when it is not JSON."""
    if not text.strip():
        return {}
    if (deep_at := _too_deep(text)) is not None:
        raise _Broken(_line(text, deep_at), f"nested more than {MAX_DEPTH} levels deep")

    def unique_restrictions(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        # `{"deny": ["Bash(rm:*)"], "deny": []}`: JSON keeps the last, so a deny would vanish unseen.
        obj = dict(pairs)
        if len(obj) < len(pairs):
            keys = [key for key, _ in pairs]
            for key in ("permissions", "deny", "ask"):
                if keys.count(key) > 1:
                    second = text.find(f'"{key}"', text.find(f'"{key}"') + 1)
                    raise _Broken(_line(text, second), f'"{key}" is written twice in one object: which one holds?')
        return obj

    try:
        return json.loads(text, object_pairs_hook=unique_restrictions)
    except json.JSONDecodeError as exc:
        raise _Broken(exc.lineno, f"not valid JSON ({exc.msg})") from None
    except (ValueError, RecursionError) as exc:  # e.g. an integer of more than 4300 digits
        raise _Broken(None, f"not valid JSON ({exc})") from None


def _too_deep(text: str) -> int | None:
    """Where arrays and objects first nest deeper than `MAX_DEPTH` (None: they never do).

    Nothing here recurses. The depth is measured at C speed on the brackets left once escapes and
    strings are taken out; only a file found too deep is walked again to find where.
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", _ESCAPE.sub("", text)))
    if max(accumulate(map(_STEP.__getitem__, brackets)), default=0) <= MAX_DEPTH:
        return None
    depth, in_string, skip_to = 0, False, -1
    for match in _STRUCTURE.finditer(text):
        at, char = match.start(), match.group()
        if at < skip_to:
            continue  # the character after a backslash in a string
        if in_string:
            if char == "\\":
                skip_to = at + 2
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return at
        elif char in "]}":
            depth -= 1
    return None


def _interpret(layer: Layer, path: Path, text: str) -> _FileRules:
    """The rules and mode a file's text says; `_Broken` when a restriction in it cannot be read."""
    data = _parse_json(text)
    if not isinstance(data, dict):
        raise _Broken(1, "the file must hold a JSON object")
    for key in data:  # `"Permissions"` would be another feature's key, and its rules ignored
        if key != "permissions" and key.strip().lower() == "permissions":
            raise _Broken(_line(text, text.find(json.dumps(key))), f'{json.dumps(key)} is not "permissions"')
    permissions = data.get("permissions", {})
    if not isinstance(permissions, dict):
        raise _Broken(_line(text, text.find('"permissions"')), '"permissions" must be an object')
    found = _FileRules(path)
    for key in permissions:
        spelled = next((a for a in _ACTIONS if key != a.value and key.strip().lower() == a.value), None)
        if spelled is not None:
            line = _line(text, text.find(json.dumps(key)))
            _unreadable(found, spelled, path, line, f'{json.dumps(key)} is not "{spelled}"')
    for action in _ACTIONS:
        entries = permissions.get(action.value, [])
        key_at = text.find(f'"{action.value}"')
        if not isinstance(entries, list):
            _unreadable(found, action, path, _line(text, key_at), f'"{action}" must be a list of rules')
            continue
        cursor = max(key_at, 0)
        for entry in entries:
            cursor = _find(text, entry, cursor)
            line = _line(text, cursor)
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
        found.mode_line = _line(text, text.find('"defaultMode"'))
        try:
            if not isinstance(raw, str):
                raise ValueError('"defaultMode" must be a string')
            found.mode, found.mode_text = Mode.parse(raw), raw
        except ValueError as exc:
            found.problems.append(SettingsProblem(path, found.mode_line, f"{exc}; ignored"))
    return found


def _unreadable(found: _FileRules, action: Decision, path: Path, line: int | None, message: str) -> None:
    """An entry that cannot be read: an allow is skipped (the call asks instead); a deny or ask
    could have forbidden anything, so the whole file is broken."""
    if action is Decision.ALLOW:
        found.problems.append(SettingsProblem(path, line, f"{message}; skipped"))
        return
    raise _Broken(line, f"{message}; a {action} rule that cannot be read could forbid anything")


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


def _find(text: str, entry: object, start: int) -> int:
    """Where an entry of a list is written, searching from `start` (which it returns if not found)."""
    if isinstance(entry, list | dict):
        return start  # not spelled out again: its spelling is not unique, and could be deep
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
    try:
        text = _read_text(path) or ""
        data = _parse_json(text)
    except _Broken as broken:
        where = f"{path}:{broken.line}" if broken.line else str(path)
        raise ValueError(f"{where}: {broken.message}; not changed") from None
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
