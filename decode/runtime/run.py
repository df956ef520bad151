"""`decode run "TASK"`: one task, headless, the final answer alone on stdout.

Progress (tool calls, retries, notices) goes to stderr, so `decode run "…" > answer.md` captures
only the answer. Exit codes: 0 done, 1 the run failed, 2 usage or configuration error,
3 the request ceiling (`--max-requests`) was reached, 130 interrupted (Ctrl-C).
"""

import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from decode.logging import init_logger

if TYPE_CHECKING:
    from decode.agent.compose import Conversation
    from decode.entities.events import ToolOutputDelta

init_logger()

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_REQUEST_LIMIT = 3
EXIT_INTERRUPTED = 130
# The Permission Mode names (`decode.permissions.types.Mode`), spelled here so `--help` stays fast.
PERMISSION_MODES = ("default", "plan", "accept-edits", "bypass")


def fail(message: str, code: int) -> NoReturn:
    """Print a one-line error to stderr and exit with `code`."""
    click.echo(f"decode: error: {message}", err=True)
    sys.exit(code)


@click.command()
@click.argument("task")
@click.option("-m", "--model", help="Model string, e.g. google-gla:gemini-flash-latest or script:turns.json.")
@click.option("--max-requests", type=click.IntRange(min=1), help="Stop after N model requests (exit code 3).")
@click.option(
    "--resume", metavar="ID", help="Continue saved session ID (or a unique prefix; `decode sessions` lists them)."
)
@click.option(
    "--permission-mode",
    type=click.Choice(PERMISSION_MODES),
    help="What runs without asking; headless, anything that would ask is refused. Default: settings, else default.",
)
def run(
    task: str, model: str | None, max_requests: int | None, resume: str | None, permission_mode: str | None
) -> None:
    """Run TASK headless and print the final answer on stdout.

    TASK "-" reads the task from stdin. The conversation is saved under .decode/sessions/;
    `--resume ID` continues one, with its model unless `--model` is given. Tool calls go through
    the permission rules (`decode permissions`); a call that would ask is refused and the model
    is told why. Exit codes: 0 done,
    1 the run failed, 2 usage or configuration error, 3 request ceiling reached, 130 interrupted.
    """
    if task == "-":
        task = sys.stdin.read()
    if not task.strip():
        fail("the task is empty", EXIT_USAGE)
    try:
        code = asyncio.run(_run(task, model, max_requests, resume, permission_mode))
    except KeyboardInterrupt:
        click.echo("decode: interrupted", err=True)
        code = EXIT_INTERRUPTED
    sys.exit(code)


def _build(
    model: str | None, max_requests: int | None, resume: str | None, permission_mode: str | None, echo: "OutputEcho"
) -> "Conversation":
    """The Agent Loop of this run, from the composition root; a one-line error (exit 2) if it cannot be built."""
    from decode.agent.compose import LoopOptions, build_loop
    from decode.config.loading import ConfigError, load_settings
    from decode.context.session_log import SessionError
    from decode.models.errors import ModelConfigError
    from decode.permissions.types import Mode

    def on_retry(error: BaseException, attempt: int, delay: float) -> None:
        click.echo(f"decode: model error ({_short(error)}); retry {attempt} in {delay:.1f}s", err=True)

    try:
        settings = load_settings()
        init_logger(settings.log_level)
        options = LoopOptions(
            home=Path.cwd(),  # the Harness Home is the launch directory: sessions belong to it
            settings=settings,
            model=model,
            resume=resume,
            permission_mode=Mode.parse(permission_mode) if permission_mode else None,
            max_requests=max_requests,
            on_tool_output=echo,  # no `approve`: headless, a call that would ask is refused
            on_retry=on_retry,
        )
        conversation = build_loop(options)
    except (ConfigError, ModelConfigError, SessionError) as exc:
        fail(str(exc), EXIT_USAGE)
    for problem in conversation.gate.problems:
        click.echo(f"decode: warning: {problem}", err=True)
    if conversation.resumed_mode and conversation.gate.mode is not Mode.DEFAULT:
        click.echo(f"decode: resuming in permission mode {conversation.gate.mode}", err=True)
    return conversation


async def _run(
    task: str, model: str | None, max_requests: int | None, resume: str | None, permission_mode: str | None
) -> int:
    from pydantic_ai.exceptions import ModelAPIError, UnexpectedModelBehavior, UsageLimitExceeded

    from decode.entities.events import Notice, TextDelta, ToolCallFinished, ToolCallStarted, TurnFinished
    from decode.models.script import ScriptExhaustedError

    echo = OutputEcho()
    conversation = _build(model, max_requests, resume, permission_mode, echo)
    loop, session = conversation.loop, conversation.session
    commentary: list[str] = []
    try:
        async for event in loop.run_turn(task):
            if isinstance(event, TextDelta):
                commentary.append(event.text)
            elif isinstance(event, ToolCallStarted):
                # Text the model wrote before calling a tool is commentary, not the answer.
                if text := "".join(commentary).strip():
                    click.echo(text, err=True)
                commentary.clear()
                click.echo(f"→ {event.call.summary()}", err=True)
            elif isinstance(event, ToolCallFinished):
                echo.end_line()
                mark = "✗" if event.result.is_error else "✓"
                click.echo(f"  {mark} {event.result.name} ({event.result.duration_s:.1f}s)", err=True)
                if event.result.is_error:  # why: a refusal by the permission rules, a bad argument…
                    click.echo(f"    {_short_line(event.result.content)}", err=True)
            elif isinstance(event, Notice):
                click.echo(f"decode: {event.level}: {event.message}", err=True)
            elif isinstance(event, TurnFinished):
                click.echo(event.output)
    except UsageLimitExceeded:
        click.echo(
            f"decode: error: stopped at the request ceiling ({loop.max_requests}); raise it with --max-requests",
            err=True,
        )
        return EXIT_REQUEST_LIMIT
    except ModelAPIError as exc:
        click.echo(f"decode: error: model request failed: {_short(exc)}", err=True)
        return EXIT_FAILED
    except UnexpectedModelBehavior as exc:
        click.echo(f"decode: error: the model's response could not be used: {_short(exc)}", err=True)
        return EXIT_FAILED
    except ScriptExhaustedError as exc:
        click.echo(f"decode: error: {exc}", err=True)
        return EXIT_FAILED
    click.echo(f"decode: session {session.session_id} saved (continue it with --resume {session.session_id})", err=True)
    return EXIT_OK


class OutputEcho:
    """Shows a running tool's output on stderr as it comes, each line indented under its call.

    Only the first `max_lines` lines of a call are echoed: the point is to see that a long
    command is alive, not to flood the terminal (the model gets the output regardless).
    """

    def __init__(self, max_lines: int = 40) -> None:
        self.max_lines = max_lines
        self.call_id = ""
        self.lines = 0
        self.at_line_start = True

    def __call__(self, delta: "ToolOutputDelta") -> None:
        if delta.call_id != self.call_id:
            self.call_id, self.lines, self.at_line_start = delta.call_id, 0, True
        for piece in delta.text.splitlines(keepends=True):
            if self.lines >= self.max_lines:
                return
            if self.at_line_start:
                click.echo("  │ ", err=True, nl=False)
            click.echo(piece, err=True, nl=False)
            self.at_line_start = piece.endswith("\n")
            if self.at_line_start:
                self.lines += 1
                if self.lines == self.max_lines:
                    click.echo("  │ …", err=True)

    def end_line(self) -> None:
        """Finish a last line that had no newline, so the next progress line starts clean."""
        if not self.at_line_start:
            click.echo(err=True)
            self.at_line_start = True


def _short_line(text: str, width: int = 160) -> str:
    """The first line of a tool's error, cut to `width` characters."""
    line = text.strip().split("\n", 1)[0]
    return line if len(line) <= width else line[: width - 1] + "…"


def _short(error: BaseException) -> str:
    """A one-line description of a model error, without dumping a whole response body."""
    from pydantic_ai.exceptions import ModelHTTPError

    if isinstance(error, ModelHTTPError):
        reason = _provider_reason(error.body)
        return f"HTTP {error.status_code} from {error.model_name}" + (f": {reason}" if reason else "")
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 300 else text[:299] + "…"


def _provider_reason(body: object) -> str:
    """The provider's own one-line reason from an error body (`{"error": {"message": …}}` or similar)."""
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else inner
        if isinstance(message, str):
            text = " ".join(message.split())
            return text if len(text) <= 200 else text[:199] + "…"
    return ""
