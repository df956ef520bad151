"""The options that make `decode run` a tool for scripts and CI, and what they ask of a run.

`headless_options` adds them to the click command; `take_headless_options` takes them out of the
command's keyword arguments again (the rest are `LoopOptions` fields) and checks them: a rule that
cannot be read is a usage error (exit 2) before anything starts. Only click is imported at module
level, so `decode run --help` stays fast.
"""

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import click

from decode.runtime.cli_options import check_session_choice

if TYPE_CHECKING:
    from decode.agent.compose import Conversation
    from decode.permissions.types import Rule

OutputFormat = Literal["text", "json", "stream-json", "codex-json"]
OUTPUT_FORMATS: tuple[OutputFormat, ...] = ("text", "json", "stream-json")
"""What `--output-format` takes; `codex-json` (Codex's events) is asked for by Codex's `--json`."""

EXIT_CODES = """Exit codes: 0 done; 1 the run failed (a model error, the script ran out, a hand-back
push failed); 2 usage or configuration error; 3 the request ceiling (--max-requests) was reached;
130 interrupted (Ctrl-C); 128+N stopped by signal N (143: SIGTERM, 129: SIGHUP)."""


@dataclass
class HeadlessOptions:
    """What the lesson-15 options ask of this run (the rest are `LoopOptions`)."""

    output_format: OutputFormat = "text"
    raw: bool = False
    partial: bool = False
    summary_json: Path | None = None
    quiet: bool = False
    append_system_prompt: str | None = None
    last_message: Path | None = None
    allow: list["Rule"] = field(default_factory=list)
    deny: list["Rule"] = field(default_factory=list)

    def apply(self, conversation: "Conversation") -> None:
        """Put this run's rules in force and add its instructions, on a freshly built conversation."""
        conversation.gate.add_rules([*self.deny, *self.allow])  # the gate's order makes deny win
        active = conversation.agent
        if self.append_system_prompt and active is not None:
            definition = active.definition
            extra = self.append_system_prompt.strip()
            instructions = f"{definition.instructions}\n\n{extra}" if definition.instructions else extra
            active.definition = replace(definition, instructions=instructions)


def headless_options[F: Callable[..., Any]](command: F) -> F:
    """The lesson-15 options of `decode run`, added to `command`."""
    decorators = [
        click.option(
            "--output-format",
            type=click.Choice(OUTPUT_FORMATS),
            default="text",
            show_default=True,
            help="text: the answer on stdout. json: one result object on stdout at the end. stream-json: one "
            "JSON event per line (init … result); see docs/headless.md. Progress stays on stderr.",
        ),
        click.option(
            "--include-partial-messages",
            "partial",
            is_flag=True,
            help="stream-json: also a text_delta event for each piece of text as the model streams it.",
        ),
        click.option(
            "--raw",
            is_flag=True,
            help="text format: the answer as the model wrote it, terminal escape sequences included, when stdout "
            "is a pipe or a file (by default they are taken out; a terminal always gets them made visible).",
        ),
        click.option(
            "-C",
            "--cwd",
            "--cd",
            type=click.Path(exists=True, file_okay=False, path_type=Path),
            metavar="DIR",
            help="Run as if launched in DIR (the Harness Home: its settings, sessions, rules).",
        ),
        click.option(
            "--append-system-prompt",
            metavar="TEXT",
            help="Added to the agent's instructions for this run.",
        ),
        click.option(
            "--allowed-tools",
            "--allowedTools",
            multiple=True,
            metavar="RULES",
            help="Allow rules for this run, e.g. 'Bash(git diff:*) Read Edit(src/**)'; comma or space separated, "
            "repeatable.",
        ),
        click.option(
            "--disallowed-tools",
            "--disallowedTools",
            multiple=True,
            metavar="RULES",
            help="Deny rules for this run (deny wins over any allow); same syntax.",
        ),
        click.option(
            "-c",
            "--continue",
            "continue_",
            is_flag=True,
            help="Continue the newest session of this directory (as --resume without ID).",
        ),
        click.option(
            "--summary-json",
            type=click.Path(dir_okay=False, path_type=Path),
            metavar="PATH",
            help="Also write the result object (the json format's) to PATH, whatever the output format.",
        ),
        click.option("-q", "--quiet", is_flag=True, help="No progress on stderr (warnings and errors still)."),
        # Claude Code's and Codex's spellings, each meaning what its writer meant (docs/headless.md, ADR-0125)
        click.option(
            "--dangerously-skip-permissions",
            is_flag=True,
            help="Claude Code's spelling of --permission-mode bypass (deny and ask rules still hold; a repository's "
            "own settings still grant nothing untrusted).",
        ),
        click.option(
            "--max-turns",
            type=click.IntRange(min=1),
            metavar="N",
            help="Claude Code's spelling of --max-requests (exit 3, subtype error_max_turns, when reached).",
        ),
        click.option(
            "-o",
            "--output-last-message",
            type=click.Path(dir_okay=False, path_type=Path),
            metavar="FILE",
            help="Also write the final answer to FILE (Codex's option).",
        ),
        click.option(
            "--verbose", is_flag=True, help="Accepted for Claude Code's scripts: progress is on stderr anyway."
        ),
        click.option("--skip-git-repo-check", is_flag=True, help="Accepted for Codex's scripts: decode runs anywhere."),
        click.option(
            "--json",
            "--experimental-json",
            "codex_json",
            is_flag=True,
            help="Codex's `exec --json`: Codex's JSONL events on stdout (thread.started, item.*, turn.completed).",
        ),
        click.option(
            "--full-auto",
            is_flag=True,
            help="Codex's low-friction mode, as decode's nearest: --permission-mode accept-edits (file edits in the "
            "workspace run; commands still need an allow rule).",
        ),
    ]
    for decorator in reversed(decorators):
        command = decorator(command)
    return command


def take_headless_options(options: dict[str, Any]) -> HeadlessOptions:
    """Pop the lesson-15 options from `options` (what is left are `LoopOptions` fields); `--cwd`
    changes directory here, before `run()` reads `--settings` and `--add-dir` (relative to DIR).
    Raises `click.UsageError` for a rule that cannot be read."""
    if (cwd := options.pop("cwd", None)) is not None:
        os.chdir(cwd)  # everything after this sees DIR as the launch directory
    if options.pop("continue_", False):
        if options.get("resume") is not None:
            raise click.UsageError("--continue and --resume cannot be used together")
        options["resume"] = ""  # the newest session
    check_session_choice(options)  # `--session-id`, `--fork-session` (ADR-0129)
    _claude_spellings(options)
    return HeadlessOptions(
        output_format=options.pop("output_format", "text") or "text",
        raw=bool(options.pop("raw", False)),
        partial=bool(options.pop("partial", False)),
        summary_json=options.pop("summary_json", None),
        quiet=bool(options.pop("quiet", False)),
        append_system_prompt=options.pop("append_system_prompt", None),
        last_message=options.pop("output_last_message", None),
        allow=session_rules(options.pop("allowed_tools", ()), "allow"),
        deny=session_rules(options.pop("disallowed_tools", ()), "deny"),
    )


def _claude_spellings(options: dict[str, Any]) -> None:
    """Claude Code's options as decode's own `LoopOptions` fields; one asking for the opposite of
    decode's own spelling given beside it is a usage error."""
    from decode.permissions.modes import Mode

    options.pop("verbose", None)
    options.pop("skip_git_repo_check", None)
    if options.pop("codex_json", False):
        if options.get("output_format") not in (None, "text"):
            raise click.UsageError("--json (Codex's events) and --output-format cannot be used together")
        options["output_format"] = "codex-json"
    if options.pop("full_auto", False):
        if options.get("permission_mode") not in (None, Mode.ACCEPT_EDITS):
            raise click.UsageError("--full-auto and --permission-mode disagree")
        options["permission_mode"] = Mode.ACCEPT_EDITS
    if options.pop("dangerously_skip_permissions", False):
        if options.get("permission_mode") not in (None, Mode.BYPASS):
            raise click.UsageError("--dangerously-skip-permissions and --permission-mode disagree")
        options["permission_mode"] = Mode.BYPASS
    if (turns := options.pop("max_turns", None)) is not None:
        if options.get("max_requests") not in (None, turns):
            raise click.UsageError("--max-turns and --max-requests disagree")
        options["max_requests"] = turns


def split_rules(values: Iterable[str]) -> list[str]:
    """`("Bash(git diff:*) Read", "Edit(src/**),Write")` as rule strings: split on commas and spaces
    outside parentheses (`Bash(git diff:*)` keeps its space)."""
    rules: list[str] = []
    for value in values:
        depth, current = 0, ""
        for char in value:
            depth += {"(": 1, ")": -1}.get(char, 0)
            if depth <= 0 and (char == "," or char.isspace()):
                depth = 0
                if current:
                    rules.append(current)
                current = ""
            else:
                current += char
        if current:
            rules.append(current)
    return rules


def session_rules(values: Iterable[str], action: str) -> list["Rule"]:
    """The `--allowed-tools`/`--disallowed-tools` values as rules of this session only."""
    from decode.permissions.rules import RuleError, parse_rule
    from decode.permissions.types import Decision, Layer, RuleSource

    source = RuleSource(Layer.LOCAL, Path(f"--{'allowed' if action == 'allow' else 'disallowed'}-tools"))
    try:
        return [parse_rule(text, Decision(action), source) for text in split_rules(values)]
    except RuleError as exc:
        raise click.UsageError(str(exc)) from None
