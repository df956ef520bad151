"""The hooks the settings files configure, in Claude Code's format:

    {"hooks": {"PostToolUse": [{"matcher": "Edit|Write",
                                "hooks": [{"type": "command", "command": "npx prettier --write", "timeout": 30}]}]}}

Read from every settings file decode reads (`settings_layers`: user, project, local, and
`--settings`), all of them: hooks add up, none overrides another. Each `HookCommand` keeps its file
and whether the repository brought it (`shared`): those run only once the project is trusted, and
are what `project_hook_grants` hands Project Trust. A malformed entry is skipped and reported with
its file and line; a broken file's hooks are skipped (its permissions have their own stand-in).
"""

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from decode.hooks.events import HookEvent
from decode.hooks.matching import matcher_error
from decode.permissions.command_line_settings import CommandLineSettings
from decode.permissions.project_grants import OtherGrant
from decode.permissions.settings_json import BrokenFile, find_entry, line_of, parse_json, read_text
from decode.permissions.settings_layers import SettingsFile, settings_files
from decode.permissions.types import Layer

DEFAULT_TIMEOUT_S = 60.0
"""Claude Code's: a hook that runs longer is killed, with everything it started."""
MAX_TIMEOUT_S = 3600.0


@dataclass(frozen=True)
class HookCommand:
    """One configured hook: the event, its matcher, the shell command, its time limit, its file."""

    event: HookEvent
    matcher: str
    command: str
    timeout_s: float
    source: SettingsFile
    line: int | None = None

    @property
    def where(self) -> str:
        return f"{self.source.path}:{self.line}" if self.line else str(self.source.path)

    def describe(self) -> str:
        """`PostToolUse Edit|Write: npx prettier --write` as `/hooks` and the trust question show it."""
        matcher = f" {self.matcher}" if self.matcher else ""
        return f"{self.event}{matcher}: {self.command}"


@dataclass
class HookConfig:
    """Every hook the settings configure, lowest-priority file first, and what could not be read."""

    hooks: list[HookCommand] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def load_hooks(project: Path, home: Path | None = None, command_line: CommandLineSettings | None = None) -> HookConfig:
    """The hooks of every settings file that exists (see the module docstring)."""
    config = HookConfig()
    for file in settings_files(project, home):
        try:
            text = read_text(file.path)
        except BrokenFile:
            continue  # the permission settings report the broken file once
        if text is not None:
            read_file(file, text, config)
    if command_line is not None:
        read_file(SettingsFile(Layer.COMMAND_LINE, command_line.path), command_line.text, config)
    return config


def project_hook_grants(files: Sequence[SettingsFile]) -> list[OtherGrant]:
    """The hooks the repository's own files among `files` configure, as grants for Project Trust:
    each is a program the repository chose to run, so it waits for the user's yes."""
    config = HookConfig()
    for file in files:
        try:
            text = read_text(file.path) if file.shared else None
        except BrokenFile:
            continue
        if text is not None:
            read_file(file, text, config)
    return [OtherGrant(hook.source.path, hook.line, f"hook {hook.describe()}") for hook in config.hooks]


def read_file(file: SettingsFile, text: str, config: HookConfig) -> None:
    """Add the hooks `text` (the file's) configures to `config`, and its problems."""
    try:
        data = parse_json(text)
    except BrokenFile:
        return
    if not isinstance(data, dict) or "hooks" not in data:
        return
    found = _Reader(file, text, config)
    found.events(data["hooks"])


@dataclass
class _Reader:
    file: SettingsFile
    text: str
    config: HookConfig
    cursor: int = 0

    def problem(self, message: str) -> None:
        line = line_of(self.text, self.cursor) if self.cursor else None
        where = f"{self.file.path}:{line}" if line else str(self.file.path)
        self.config.problems.append(f"{where}: {message}; skipped")

    def events(self, hooks: Any) -> None:
        self.cursor = max(self.text.find('"hooks"'), 0)
        if not isinstance(hooks, dict):
            self.problem('"hooks" must be an object of events')
            return
        for name, groups in hooks.items():
            self.cursor = find_entry(self.text, name, self.cursor)
            try:
                event = HookEvent(name)
            except ValueError:
                self.problem(f"{name!r} is not a hook event ({', '.join(HookEvent)})")
                continue
            if not isinstance(groups, list):
                self.problem(f"{name} must be a list of {{matcher, hooks}} objects")
                continue
            for group in groups:
                self.group(event, group)

    def group(self, event: HookEvent, group: Any) -> None:
        matcher = group.get("matcher", "") if isinstance(group, dict) else None
        if not isinstance(matcher, str) or not isinstance(group.get("hooks"), list):
            self.problem(f'an entry of {event} must be {{"matcher": "...", "hooks": [...]}}')
            return
        self.cursor = find_entry(self.text, matcher, self.cursor) if matcher else self.cursor
        if (error := matcher_error(matcher)) is not None:
            self.problem(error)
            return
        for hook in group["hooks"]:
            self.command(event, matcher, hook)

    def command(self, event: HookEvent, matcher: str, hook: Any) -> None:
        command = hook.get("command") if isinstance(hook, dict) else None
        if isinstance(command, str):
            self.cursor = find_entry(self.text, command, self.cursor)
        kind = hook.get("type", "command") if isinstance(hook, dict) else None
        if kind != "command":
            self.problem(f'a hook of type {json.dumps(kind)} (decode runs only "command" hooks)')
            return
        if not isinstance(command, str) or not command.strip():
            self.problem('a hook needs a "command": the shell command to run')
            return
        timeout = hook.get("timeout", DEFAULT_TIMEOUT_S)
        if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout <= MAX_TIMEOUT_S:
            self.problem(f'"timeout" of {command!r} must be a number of seconds, 1 to {MAX_TIMEOUT_S:.0f}')
            return
        line = line_of(self.text, self.cursor)
        self.config.hooks.append(HookCommand(event, matcher, command, float(timeout), self.file, line))


def describe_hooks(config: HookConfig, trusted: bool) -> list[str]:
    """`decode permissions`' lines about the hooks: each with its file and whether it runs now."""
    if not config.hooks:
        return []
    lines = ["hooks, in the order the settings files are read:"]
    for hook in config.hooks:
        state = "waits for trust" if hook.source.shared and not trusted else "runs"
        lines.append(f"  {hook.describe()}  ({hook.where}) · {state}")
    return lines + [f"hook {problem}" for problem in config.problems]
