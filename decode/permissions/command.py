"""`decode permissions`: the rules in force and where they come from; `check` asks the gate.

    decode permissions                                   # effective rules, with their files
    decode permissions check bash "git status && rm -rf build"
    decode permissions check read src/../.env --json     # {"decision": …, "rule": …, "source": …}

Exit codes: 0 the answer was printed (whatever the decision), 2 usage error.
"""

import json
from pathlib import Path

import click

from decode.permissions.gate import PermissionGate
from decode.permissions.rules import TOOL_RULES
from decode.permissions.types import Mode, Verdict

# What a user may type as TOOL: decode's tool names, or the rule names (`Bash`, `WebFetch`).
_CLI_TOOLS = {names[0].lower(): tool for tool, names in TOOL_RULES.items()} | {tool: tool for tool in TOOL_RULES}
# Which argument of each tool ARG stands for (file tools take `path`).
_ARGUMENT_KEYS = {"bash": "command", "glob": "pattern", "web_fetch": "url"}


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
    help="default, plan, accept-edits or bypass (default: the settings' defaultMode, else default).",
)
_json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


def _load(mode: Mode | None) -> PermissionGate:
    gate = PermissionGate.from_settings(Path.cwd(), mode=mode)
    for problem in gate.problems:
        click.echo(f"decode: warning: {problem}", err=True)
    return gate


@click.group(invoke_without_command=True)
@_mode_option
@_json_option
@click.pass_context
def permissions(ctx: click.Context, mode: Mode | None, as_json: bool) -> None:
    """Show the permission rules in force and the settings file each comes from.

    Files, lowest priority first: ~/.decode/settings.json, .decode/settings.json,
    .decode/settings.local.json. A deny anywhere stands; otherwise the later file wins.
    """
    if ctx.invoked_subcommand is not None:
        return
    gate = _load(mode)
    where = "--permission-mode" if mode else (str(gate.mode_source) if gate.mode_source else "built-in")
    if as_json:
        rules = [
            {
                "action": rule.action.value,
                "rule": rule.text,
                "source": str(rule.source.path) if rule.source else None,
                "line": rule.source.line if rule.source else None,
                "layer": rule.source.layer.value if rule.source else None,
            }
            for rule in gate.rules
        ]
        problems = [str(problem) for problem in gate.problems]
        click.echo(json.dumps({"mode": gate.mode.value, "mode_source": where, "rules": rules, "problems": problems}))
        return
    click.echo(f"mode: {gate.mode} ({where})")
    if not gate.rules:
        click.echo("no rules: the mode decides every call")
    width = max((len(rule.text) for rule in gate.rules), default=0)
    for rule in gate.rules:
        layer = f" ({rule.source.layer})" if rule.source else ""
        click.echo(f"{rule.action.value:<5}  {rule.text:<{width}}  {rule.source}{layer}")


@permissions.command()
@click.argument("tool")
@click.argument("argument", required=False, default="")
@_mode_option
@_json_option
def check(tool: str, argument: str, mode: Mode | None, as_json: bool) -> None:
    """Print what the gate decides for TOOL with ARGUMENT, and the rule and file that decided.

    TOOL is bash, read, write, edit, glob, grep, web_fetch (or Bash, Read… as in rules) or an
    MCP tool name; ARGUMENT is the command, path, glob pattern or URL.
    """
    tool = _CLI_TOOLS.get(tool.lower(), tool) if tool.isascii() else tool
    gate = _load(mode)
    args = {_ARGUMENT_KEYS.get(tool, "path"): argument} if argument else {}
    verdict = gate.check(tool, args)
    if as_json:
        click.echo(json.dumps(verdict.to_json()))
    else:
        click.echo(_describe(verdict, gate.mode))


def _describe(verdict: Verdict, mode: Mode) -> str:
    source = verdict.source
    lines = [verdict.decision.value]
    if verdict.rule is not None and source is not None:
        lines.append(f"  rule:   {verdict.rule}")
        lines.append(f"  source: {source} ({source.layer})")
    else:
        lines.append(f"  rule:   none ({mode} mode decides)")
    lines.append(f"  why:    {verdict.reason}")
    return "\n".join(lines)
