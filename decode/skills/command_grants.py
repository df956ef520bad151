"""A custom command's `allowed-tools`: allow rules in force while that command's turn runs.

Claude Code's front matter `allowed-tools: Bash(git add:*), Bash(git status:*)` lets the command's
`!` lines and its turn run those calls without asking. In decode the rules answer only the question
the *mode* would ask (`decode.permissions.turn_grants`): never a deny or ask rule, a protected or
secret file, a command the parser cannot read. A command file the repository ships is one of its
grants: it joins Project Trust beside its settings' allow rules and hooks (`project_command_grants`,
in the trust hash), so an untrusted or changed one grants nothing (`command_rules` says why).
"""

from pathlib import Path
from typing import TYPE_CHECKING

from decode.permissions.project_grants import NOT_TRUSTED, OtherGrant
from decode.permissions.rules import RuleError, parse_rule
from decode.permissions.types import Decision, Layer, Rule, RuleSource
from decode.skills.catalog import SkillSource
from decode.skills.custom_commands import CustomCommand

if TYPE_CHECKING:
    from decode.config.settings import Settings


def split_rules(text: str) -> list[str]:
    """`Bash(git add:*), Read Edit` as rule strings: commas and spaces split, outside parentheses."""
    rules, depth, current = [], 0, ""
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth <= 0 and (char == "," or char.isspace()):
            depth = 0
            rules += [current] if current else []
            current = ""
        else:
            current += char
    return [*rules, *([current] if current else [])]


def grant_text(command: CustomCommand) -> str:
    """How a repository's command grant reads in the trust question (and in its hash)."""
    return f"command /{command.name}: allowed-tools {command.allowed_tools}"


def project_command_grants(project: Path) -> list[OtherGrant]:
    """The repository's command files that carry `allowed-tools`, as grants for Project Trust."""
    from decode.skills.custom_commands import command_roots, discover_commands

    if not any(root.is_dir() for source, root in command_roots(project) if source is SkillSource.PROJECT):
        return []  # the usual case: no command folder, nothing to read
    commands = discover_commands(project).commands.values()
    return [
        OtherGrant(c.path, _line_of(c.path), grant_text(c))
        for c in commands
        if c.source is SkillSource.PROJECT and c.allowed_tools.strip()
    ]


def command_rules(command: CustomCommand, trusted: list[OtherGrant] | None) -> tuple[list[Rule], str]:
    """The allow rules `command` grants, and why it grants none (or what it skipped) when not ''.

    `trusted`: the repository's grants the user trusted (None: the project's settings are not
    trusted); a project's command grants only when it is among them, as it is now."""
    if not command.allowed_tools.strip():
        return [], ""
    repository = command.source is SkillSource.PROJECT
    if repository and (trusted is None or not any(_same(grant, command) for grant in trusted)):
        why = (
            NOT_TRUSTED if trusted is None else "it changed since the project's settings were trusted (restart decode)"
        )
        return [], f"/{command.name}: its allowed-tools grant nothing: {why}"
    source = RuleSource(Layer.PROJECT if repository else Layer.USER, command.path, _line_of(command.path))
    rules, bad = [], []
    for text in split_rules(command.allowed_tools):
        try:
            rules.append(parse_rule(text, Decision.ALLOW, source))
        except RuleError as exc:
            bad.append(str(exc))
    return rules, (f"/{command.name}: allowed-tools skipped: {'; '.join(bad)}" if bad else "")


def _same(grant: OtherGrant, command: CustomCommand) -> bool:
    return grant.path == command.path and grant.text == grant_text(command)


def _line_of(path: Path) -> int | None:
    """The line of the front matter where `allowed-tools:` is written (None if it cannot be found)."""
    from decode.config.safe_read import UnreadableFile, read_text

    try:
        lines = (read_text(path) or "").splitlines()
    except UnreadableFile:
        return None
    return next((n for n, line in enumerate(lines, 1) if line.lstrip().startswith("allowed-tools:")), None)


def model_settings(command: CustomCommand, settings: "Settings") -> "Settings":
    """The settings `command`'s `model` is resolved with: a repository's command gets no key that only
    the project's `.env` gives (the repository wrote both: its key and its `model` would send the
    session to an account it owns); the user's own command gets `settings` as they are."""
    return settings if command.source is not SkillSource.PROJECT else environment_keys_only(settings)


def environment_keys_only(settings: "Settings") -> "Settings":
    """`settings` without the keys (every secret) that only the project's `.env` gives."""
    from pydantic import SecretStr

    environment = type(settings)(_env_file=None)  # the environment alone, without the project's `.env`
    dropped = {
        name: getattr(environment, name)
        for name, value in settings
        if isinstance(value, SecretStr) and getattr(environment, name) != value
    }
    return settings.model_copy(update=dropped) if dropped else settings
