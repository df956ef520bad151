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
    from pydantic_ai.messages import ModelMessage

    from decode.config.settings import Settings
    from decode.context.session import Session
    from decode.entities.events import ToolOutputDelta
    from decode.permissions.gate import PermissionGate

init_logger()

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_REQUEST_LIMIT = 3
EXIT_INTERRUPTED = 130
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
    settings = load_settings()
    init_logger(settings.log_level)
    try:
        session, history = _session(model, resume, settings)
        if permission_mode is None and session.mode in PERMISSION_MODES:  # a resumed session keeps its mode
            permission_mode = session.mode
            if permission_mode != "default":
                click.echo(f"decode: resuming in permission mode {permission_mode}", err=True)
        gate = _permission_gate(permission_mode)
        session.switch_mode(gate.mode.value)
        code = asyncio.run(_run(task, session, history, max_requests or settings.max_requests, settings, gate))
    except KeyboardInterrupt:
        click.echo("decode: interrupted", err=True)
        code = EXIT_INTERRUPTED
    sys.exit(code)


def load_settings():
    """The settings object, or a one-line error (exit 2) naming what is wrong."""
    from pydantic import ValidationError

    try:
        from decode.config.settings import settings
    except ValidationError as exc:
        problem = exc.errors()[0]
        name = ".".join(str(part) for part in problem["loc"])
        fail(f"invalid setting {name}: {problem['msg']} (check the environment and .env)", EXIT_USAGE)
    return settings


def _session(model: str | None, resume: str | None, settings: "Settings") -> "tuple[Session, list[ModelMessage]]":
    """A new session, or the one `--resume` names and its history (a one-line error if there is none)."""
    from decode.context.session import Session
    from decode.context.session_log import SessionError

    try:  # the Harness Home is the launch directory: sessions belong to it
        return Session.open(Path.cwd(), resume=resume, model=model, settings=settings)
    except SessionError as exc:
        fail(str(exc), EXIT_USAGE)


def _permission_gate(mode: str | None) -> "PermissionGate":
    """The Permission Gate from the settings files; their problems are warnings, never fatal."""
    from decode.permissions.gate import PermissionGate
    from decode.permissions.types import Mode

    gate = PermissionGate.from_settings(Path.cwd(), mode=Mode.parse(mode) if mode else None)
    for problem in gate.problems:
        click.echo(f"decode: warning: {problem}", err=True)
    return gate


async def _run(
    task: str,
    session: "Session",
    history: "list[ModelMessage]",
    max_requests: int,
    settings: "Settings",
    gate: "PermissionGate",
) -> int:
    from pydantic_ai.exceptions import ModelAPIError, UnexpectedModelBehavior, UsageLimitExceeded

    from decode.agent.deps import AgentDeps
    from decode.agent.factory import build_agent
    from decode.agent.loop import AgentLoop
    from decode.entities.events import Notice, TextDelta, ToolCallFinished, ToolCallStarted, TurnFinished
    from decode.models.errors import ModelConfigError
    from decode.models.gateway import resolve_model
    from decode.models.script import ScriptExhaustedError
    from decode.tools.catalog import default_tools

    def on_retry(error: BaseException, attempt: int, delay: float) -> None:
        click.echo(f"decode: model error ({_short(error)}); retry {attempt} in {delay:.1f}s", err=True)

    try:
        model = resolve_model(session.model, settings, on_retry=on_retry)
    except ModelConfigError as exc:
        fail(str(exc), EXIT_USAGE)

    echo = OutputEcho()
    deps = AgentDeps(Path.cwd(), settings, on_tool_output=echo, permissions=gate)  # no `approve`: headless
    loop = AgentLoop(build_agent(model, tools=default_tools()), deps, max_requests=max_requests, session=session)
    loop.history = history
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
            f"decode: error: stopped at the request ceiling ({max_requests}); raise it with --max-requests", err=True
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
