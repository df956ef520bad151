"""Show the permission rules, or check one call.

`decode permissions`: the rules in force and where they come from; `check` asks the gate.

    decode permissions                                   # effective rules, with their files
    decode permissions check bash "git status && rm -rf build"
    decode permissions check read src/../.env --json     # {"decision": …, "rule": …, "source": …}

Exit codes of `check`: 0 allow, 3 ask, 4 deny (the answer is printed in every case), 2 a usage
error (an unknown tool, a malformed MCP tool name, a bad setting); `decode permissions` alone: 0.
"""

import json
from pathlib import Path
from typing import TYPE_CHECKING

import click

from decode.permissions.fetch_screen import SSRF_GUARD, screen_fetch
from decode.permissions.gate import PermissionGate
from decode.permissions.project_grants import OTHER_GRANTS, OtherGrant
from decode.permissions.report import describe_rules, describe_settings, rules_json
from decode.permissions.tool_lookup import UnknownTool, find_tool, tool_arguments
from decode.permissions.types import Decision, Mode, Verdict
from decode.visible import visible

if TYPE_CHECKING:
    from decode.permissions.command_line_settings import CommandLineSettings


def _mode(_ctx: click.Context, _param: click.Parameter, value: str | None) -> Mode | None:
    try:
        return Mode.parse(value) if value else None
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


_mode_option = click.option(
    "--permission-mode",
    "--mode",
    "mode",
    callback=_mode,
    metavar="MODE",
    help=f"{', '.join(Mode)} (default: the settings' defaultMode, else default).",
)
_json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
_SETTINGS = "decode.settings_layer"
_settings_option = click.option(
    "--settings",
    metavar="FILE|JSON",
    expose_value=False,
    callback=lambda ctx, _param, value: ctx.meta.setdefault(_SETTINGS, value) if value is not None else None,
    help="Also the settings of FILE (or this JSON), the highest layer, as `decode --settings` reads them.",
)
EXIT_CODES = {Decision.ALLOW: 0, Decision.ASK: 3, Decision.DENY: 4}
"""`decode permissions check`'s exit code for each decision (2 stays click's usage error)."""


def _load(mode: Mode | None) -> PermissionGate:
    from decode.config.loading import ConfigError

    try:
        gate = PermissionGate.from_settings(
            Path.cwd(), mode=mode, other_grants=_other_grants(Path.cwd()), command_line=_command_line()
        )
    except ConfigError as exc:  # a bad DECODE_SECRET_FILES: one line, exit 2
        raise click.UsageError(str(exc)) from None
    for problem in gate.problems:
        click.echo(f"decode: warning: {problem}", err=True)
    return gate


def _command_line() -> "CommandLineSettings | None":
    """What `--settings` gave, read and checked; a `BadOption` (one line, exit 2) when it cannot be used."""
    from decode.permissions.command_line_settings import SettingsArgumentError, read_command_line_settings
    from decode.runtime.cli_options import BadOption

    value = click.get_current_context().meta.get(_SETTINGS)
    try:
        return read_command_line_settings(value, Path.cwd()) if value is not None else None
    except SettingsArgumentError as exc:
        raise BadOption(str(exc)) from None


def _other_grants(project: Path) -> list[OtherGrant]:
    """What the project grants outside its settings files (its agents), as the `decode` command finds it."""
    context = click.get_current_context(silent=True)
    find = context.meta.get(OTHER_GRANTS) if context is not None else None
    return list(find(project)) if find is not None else []


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@_mode_option
@_json_option
@_settings_option
@click.pass_context
def permissions(ctx: click.Context, mode: Mode | None, as_json: bool) -> None:
    """Show the permission rules in force and the settings file each comes from.

    Files, lowest priority first: ~/.claude/settings.json, ~/.decode/settings.json,
    .claude/settings.json, .decode/settings.json, .claude/settings.local.json,
    .decode/settings.local.json. A deny anywhere stands; otherwise the later file wins. The
    project's own allow rules and accept-edits mode are in force once trusted (`trust`).
    """
    if ctx.invoked_subcommand is not None:
        return
    gate = _load(mode)
    where = "--permission-mode" if mode else (str(gate.mode_source) if gate.mode_source else "built-in")
    if as_json:
        click.echo(json.dumps(rules_json(gate, where)))
        return
    # What a repository wrote (a rule, a hook's command) may hold escape sequences: shown, never obeyed.
    for line in describe_rules(gate, where):
        click.echo(visible(line))
    for line in describe_settings(gate):
        click.echo(visible(line))
    for line in _hooks(gate):  # [lesson 12]
        click.echo(visible(line))


def _hooks(gate: PermissionGate) -> list[str]:  # [lesson 12]
    """The settings files' hooks, each with its file and whether it runs (a repository's: once trusted)."""
    from decode.hooks.config import describe_hooks, load_hooks

    trusted = gate.settings is None or gate.settings.trusted
    return describe_hooks(load_hooks(Path.cwd(), command_line=_command_line()), trusted)


# [lesson 09]
@permissions.command("trust", context_settings={"help_option_names": ["-h", "--help"]})
def trust_project() -> None:
    """Trust this project's settings files and agents: their allow rules and modes are in force from now on.

    What is trusted is the grants as they are now; a changed grant asks again. Exit code 0, or 1
    when the project's settings grant nothing.
    """
    from decode.permissions.project_trust import trust
    from decode.permissions.settings_files import load_permission_settings

    project = Path.cwd()
    loaded = load_permission_settings(project, other_grants=_other_grants(project))
    if not loaded.grants:
        raise click.ClickException(f"the settings files of {project} grant nothing to trust")
    try:
        path = trust(project, loaded.grants)
    except OSError as exc:  # the store cannot be written, or another decode kept it locked
        raise click.ClickException(f"could not remember the trust: {exc}") from None
    for grant in loaded.grants.describe():
        click.echo(visible(f"trusted: {grant}"))
    click.echo(f"for {project} (remembered in {path}, until these grants change)")


# [/lesson 09]


@permissions.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("tool")
@click.argument("argument", required=False, default="")
@_mode_option
@_json_option
@_settings_option
def check(tool: str, argument: str, mode: Mode | None, as_json: bool) -> None:
    """Print what the gate decides for TOOL with ARGUMENT, and the rule and file that decided.

    TOOL is a tool's name (bash, read, write, edit, glob, grep…), the first rule name it answers
    to (Bash, Read…), or an MCP tool name (mcp__server__tool); ARGUMENT is the command, path,
    glob pattern or URL. The gate decides by the tool's declared traits, as in a session.

    Exit code: 0 allow, 3 ask, 4 deny; 2 a usage error (an unknown tool).
    """
    import asyncio

    try:
        name, traits = find_tool(tool)
    except UnknownTool as exc:
        raise click.UsageError(str(exc)) from None
    gate = _load(mode)
    verdict = asyncio.run(gate.check(name, tool_arguments(traits, argument), traits))
    if traits.url is not None and verdict.decision is not Decision.DENY:  # [lesson 13]
        verdict = asyncio.run(screen_fetch(argument, gate, verdict))
    if as_json:
        click.echo(json.dumps(verdict.to_json()))
    else:
        click.echo(_describe(verdict, gate.mode))
    raise SystemExit(EXIT_CODES[verdict.decision])


def _describe(verdict: Verdict, mode: Mode) -> str:
    source = verdict.source
    lines = [verdict.decision.value]
    if verdict.rule is not None and source is not None:
        lines.append(f"  rule:   {verdict.rule}")
        lines.append(f"  source: {source} ({source.layer})")
    # [lesson 13]
    elif verdict.reason.startswith(SSRF_GUARD):
        lines.append("  rule:   none (the SSRF Guard decides, in every mode)")
    # [/lesson 13]
    else:
        lines.append(f"  rule:   none ({mode} mode decides)")
    lines.append(f"  why:    {verdict.reason}")
    return "\n".join(lines)
