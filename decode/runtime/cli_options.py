"""The options of decode's front ends, declared once: `decode` (the REPL) and `decode run` take
the same ones, each reaching `LoopOptions` under its own name.

`SHARED` is the list both take; `RUN_ONLY` what only `decode run` takes (a headless run cannot ask
the user, so trust is given on its command line). A later lesson appends its option to a list.
Only click and the two enums' light modules are imported here: `decode --help` and `decode run --help`
stay fast.
"""

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from decode.permissions.modes import Mode
from decode.sandbox.modes import SandboxMode

type Decorator = Callable[[Any], Any]

CODEX_SANDBOXES = ("read-only", "workspace-write", "danger-full-access")  # [lesson 20]
"""Codex's `--sandbox` values, which say what the agent may write: decode's mode and sandbox (`codex_sandbox`)."""

SHARED: list[Decorator] = [
    click.option("-m", "--model", help="Model string, e.g. google-gla:gemini-flash-latest or script:turns.json."),
    click.option(
        "--max-requests",
        type=click.IntRange(min=1),
        help="Ceiling on model requests in one turn (`decode run` then exits with code 3).",
    ),
    # [lesson 11]
    click.option(
        "-r",
        "--resume",
        is_flag=False,
        flag_value="",
        metavar="[ID]",
        help="Continue saved session ID (or a unique prefix; `decode sessions` lists them), without ID the newest, "
        "with its model unless --model is given. Every session is saved under .decode/sessions/.",
    ),
    # [/lesson 11]
    # [lesson 06]
    click.option(
        "--permission-mode",
        type=click.Choice([*(mode.value for mode in Mode), "acceptEdits", "bypassPermissions"]),  # and Claude Code's
        callback=lambda _ctx, _param, value: Mode.parse(value) if value else None,  # the `LoopOptions` field's type
        help="What runs without asking (the rules: `decode permissions`; Shift+Tab switches in the REPL); "
        "headless, anything that would ask is refused and the model told why. Default: settings, else default.",
    ),
    click.option(
        "--settings",
        "settings_layer",
        metavar="FILE|JSON",
        help='More settings for this session: a file, or the JSON itself (\'{"permissions": {"deny": [...]}}\'). '
        "Above every settings file, as in Claude Code; needs no trust (you gave it).",
    ),
    # [/lesson 06]
    # [lesson 15]
    click.option(
        "--agent",
        metavar="NAME",
        help="The agent to be: build (the default), plan, explore, or one of yours (`decode agents` lists them).",
    ),
    # [/lesson 15]
    # [lesson 17]
    click.option(
        "-s",  # [lesson 20]
        "--sandbox",
        # [lesson 20]
        type=click.Choice([*(mode.value for mode in SandboxMode), *CODEX_SANDBOXES]),
        help="Where the agent's commands run: none (here), bwrap, docker or modal. Default: SANDBOX_MODE, else none. "
        "Codex's read-only, workspace-write and danger-full-access choose a permission mode too (docs/headless.md).",
        # [before lesson 20]
        # type=click.Choice([mode.value for mode in SandboxMode]),
        # help="Where the agent's commands run: none (here), bwrap, docker or modal. Default: SANDBOX_MODE, else none.",
        # [/lesson 20]
    ),
    # [/lesson 17]
    # [lesson 19]
    click.option(
        "--repo",
        metavar="PATH|URL",
        help="Clone this repository into a Workspace under .decode/ and work there; the work goes back to it as "
        "branch decode/<session-id> (at the end of `decode run`, on /ship or leaving the REPL), its checkout "
        "untouched. Default: SANDBOX_REPO.",
    ),
    # [/lesson 19]
    # [lesson 17]
    click.option(
        "--add-dir",
        "add_dirs",
        multiple=True,
        metavar="DIR",
        callback=lambda _ctx, _param, value: tuple(value) or None,  # None: not given (`decode run --add-dir` is)
        help="A folder the file tools may also work in, under the Workspace's rules (deny rules, secrets, "
        "asking before a write). Repeatable.",
    ),
    # [/lesson 17]
    # [lesson 20]
    click.option(
        "--session-id",
        metavar="UUID",
        help="Name the new session UUID (as uuidgen prints it) instead of an id of decode's own; "
        "--resume UUID continues it. Refused when a session has it already.",
    ),
    click.option(
        "--fork-session",
        is_flag=True,
        default=None,  # absent: None, as every option of the group (`decode run` after an option is refused)
        help="With --resume or --continue: go on in a new session (its id decode's own, or --session-id's) "
        "holding a copy of the resumed one; the original's log is left as it was.",
    ),
    # [/lesson 20]
]
"""What both front ends take."""

RUN_ONLY: list[Decorator] = [
    # [lesson 06]
    click.option(
        "--trust-project-settings",
        is_flag=True,
        help="Put this project's own settings' allow rules and accept-edits mode in force for this run (without "
        "it, only those trusted before: `decode permissions trust`).",
    ),
    # [/lesson 06]
    # [lesson 14]
    click.option(
        "--trust-project-mcp",
        is_flag=True,
        help="Start the MCP servers of this project's .mcp.json (without it, only servers it was trusted with before).",
    ),
    # [/lesson 14]
    # [lesson 20]
    click.option(
        "--system-prompt",
        metavar="TEXT",
        help="Instructions for this run instead of decode's own (the tools, the agent, project memory and skills "
        "are still described to the model); --append-system-prompt adds to whichever is in force.",
    ),
    click.option(
        "--json-schema",
        "--output-schema",
        "output_schema",
        metavar="SCHEMA",
        callback=lambda _ctx, _param, value: _schema(value),
        help="The final answer is a JSON object valid against SCHEMA (inline JSON, or a file); on stdout as JSON, "
        "in the result's structured_output. Exit 4 when the model cannot give one.",
    ),
    click.option(
        "--mcp-config",
        multiple=True,
        type=click.Path(exists=True, dir_okay=False, path_type=Path),
        callback=lambda _ctx, _param, value: tuple(value),
        metavar="FILE",
        help='MCP servers of FILE too ({"mcpServers": …}, as .mcp.json): named by you, so started without asking. '
        "Repeatable.",
    ),
    click.option(
        "--strict-mcp-config",
        is_flag=True,
        help="Only the servers of --mcp-config files, none of ~/.decode/mcp.json or .mcp.json.",
    ),
    click.option(
        "--session-persistence/--no-session-persistence",
        default=True,
        help="--no-session-persistence: write nothing of this run's session (it cannot be resumed).",
    ),
    # [/lesson 20]
]
"""What only `decode run` takes."""


def _schema(value: str | None) -> dict[str, Any] | None:  # [lesson 20]
    """`--json-schema`'s value as a schema; a bad one is a usage error naming the option."""
    if value is None:
        return None
    from decode.agent.structured import SchemaError, read_schema

    try:
        return read_schema(value)
    except SchemaError as exc:
        raise click.BadParameter(str(exc), param_hint="--json-schema") from None


def check_session_choice(options: dict[str, Any]) -> None:  # [lesson 20]
    """`--session-id` and `--fork-session` against `--resume` (already holding `--continue`'s ""):
    a usage error (exit 2) for a malformed id or a combination Claude Code refuses too."""
    from decode.context.session_ids import session_options_problem

    fork = bool(options.get("fork_session"))
    if "fork_session" in options:
        options["fork_session"] = fork  # a flag the command line left out is None (see `SHARED`)
    problem = session_options_problem(session_id=options.get("session_id"), resume=options.get("resume"), fork=fork)
    if problem:
        raise click.UsageError(problem)


class BadOption(click.ClickException):  # [lesson 06]
    """An option's value that cannot be used: `Error: …` on one line (no usage block), exit 2."""

    exit_code = 2


def settle_shared(options: dict[str, Any], cwd: Path) -> None:  # [lesson 06]
    """The shared options `cwd` settles, in `options`: `--settings` read and checked (lesson 17:
    `--add-dir`'s folders made real). A value that cannot be used is a `BadOption` (one line, exit 2)
    before anything starts. Both front ends call it once the launch directory is known."""
    from decode.permissions.command_line_settings import SettingsArgumentError, read_command_line_settings

    codex_sandbox(options)  # Codex's `--sandbox read-only|workspace-write|danger-full-access`  # [lesson 20]
    if (value := options.get("settings_layer")) is not None:
        try:
            options["settings_layer"] = read_command_line_settings(value, cwd)
        except SettingsArgumentError as exc:
            raise BadOption(str(exc)) from None
    if "add_dirs" in options:  # None when not given: no folder  # [lesson 17]
        options["add_dirs"] = tuple(_added_dir(value, cwd) for value in options["add_dirs"] or ())


def codex_sandbox(options: dict[str, Any]) -> None:  # [lesson 20]
    """Codex's `--sandbox` value as decode's permission mode and sandbox (ADR-0145): `read-only` is
    plan mode; `workspace-write` accept-edits, its commands in bwrap where bubblewrap is installed;
    `danger-full-access` bypass, unsandboxed. A `--permission-mode` naming another is a `BadOption`."""
    import shutil

    value = options.get("sandbox")
    if value not in CODEX_SANDBOXES:
        return
    mode = {"read-only": Mode.PLAN, "workspace-write": Mode.ACCEPT_EDITS, "danger-full-access": Mode.BYPASS}[value]
    if options.get("permission_mode") not in (None, mode):
        raise BadOption(f"--sandbox {value} and --permission-mode {options['permission_mode']} disagree")
    options["permission_mode"] = mode
    bwrap = "bwrap" if shutil.which("bwrap") else None  # else the settings' sandbox, and accept-edits' rules
    options["sandbox"] = {"read-only": None, "workspace-write": bwrap, "danger-full-access": "none"}[value]


def _added_dir(value: str, cwd: Path) -> Path:  # [lesson 17]
    """An `--add-dir` value as the real folder it names; `BadOption` when it is not one."""
    from decode.agent.steps.added_dirs import AddDirError, added_dir

    try:
        return added_dir(value, cwd)
    except AddDirError as exc:
        raise BadOption(str(exc)) from None


def with_options[F: Callable[..., Any]](options: list[Decorator]) -> Callable[[F], F]:
    """A decorator adding `options` to a click command, in the order of the list."""

    def add(command: F) -> F:
        for option in reversed(options):
            command = option(command)
        return command

    return add
