"""`decode run "TASK"`: one task, headless, the final answer alone on stdout.

Progress (tool calls, retries, notices) goes to stderr, so `decode run "…" > answer.md` captures
only the answer. Exit codes: 0 done, 1 the run failed, 2 usage or configuration error,
3 the request ceiling (`--max-requests`) was reached, 130 interrupted (Ctrl-C), 128+N stopped by
signal N (SIGTERM, SIGHUP: every process the agent started is ended first). A run that stops
early is saved all the same (its partial turn closed, as an abort in the REPL closes it), so
`--resume ID` continues it.
"""

import asyncio
import logging
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import click

from decode.logging import init_logger
from decode.visible import visible

if TYPE_CHECKING:
    from decode.agent.compose import Conversation
    from decode.entities.events import ToolOutputDelta
    from decode.tools.process import SignalStop

init_logger()
logger = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_REQUEST_LIMIT = 3
EXIT_INTERRUPTED = 130
# The Permission Mode names (`decode.permissions.types.Mode`), spelled here so `--help` stays fast.
PERMISSION_MODES = ("default", "plan", "accept-edits", "bypass")


def progress(text: str, *, nl: bool = True) -> None:
    """A line on stderr. Made `visible()`: it carries text decode did not write (the model's, a
    tool's, a server's), and no escape sequence of it may act on the user's terminal."""
    click.echo(visible(text), err=True, nl=nl)


def fail(message: str, code: int) -> NoReturn:
    """Print a one-line error to stderr and exit with `code`."""
    progress(f"decode: error: {message}")
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
    task = _task_text(sys.stdin.buffer.read() if task == "-" else os.fsencode(task))
    if not task.strip():
        fail("the task is empty", EXIT_USAGE)
    try:
        code = asyncio.run(_run(task, model, max_requests, resume, permission_mode))
    except KeyboardInterrupt:
        progress("decode: interrupted")
        code = EXIT_INTERRUPTED
    except asyncio.CancelledError:  # a signal that came after the turn was over
        code = 128 + (_stop.signum if _stop is not None and _stop.signum else signal.SIGTERM)
    sys.exit(code)


def _task_text(raw: bytes) -> str:
    """The task as text. Bytes that are not UTF-8 (a Latin-1 file on stdin, an argument in
    another encoding, which Python hands over as surrogates) are replaced, and the user told."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        progress(f"decode: warning: the task is not valid UTF-8 (byte {exc.start}); undecodable bytes became U+FFFD")
        return raw.decode("utf-8", errors="replace")


_stop: "SignalStop | None" = None
"""Which signal is stopping this run, once one is (SIGTERM, SIGHUP)."""


def _build(
    model: str | None, max_requests: int | None, resume: str | None, permission_mode: str | None, echo: "OutputEcho"
) -> "Conversation":
    """The Agent Loop of this run, from the composition root; a one-line error (exit 2) if it cannot be built."""
    from decode.agent.compose import LoopOptions, build_loop
    from decode.config.loading import ConfigError, load_settings
    from decode.context.session_log import SessionError
    from decode.models.errors import ModelConfigError
    from decode.permissions.settings_files import repository_grants
    from decode.permissions.types import Mode

    def on_retry(error: BaseException, attempt: int, delay: float) -> None:
        progress(f"decode: model error ({_short(error)}); retry {attempt} in {delay:.1f}s")

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
    gate = conversation.gate  # once per run: broken files, ignored modes, what the repository grants itself
    for problem in [*gate.problems, *repository_grants(gate.rules, gate.mode, gate.mode_source)]:
        progress(f"decode: {problem.level}: {problem}")
    if conversation.resumed_mode and conversation.gate.mode is not Mode.DEFAULT:
        progress(f"decode: resuming in permission mode {conversation.gate.mode}")
    return conversation


async def _run(
    task: str, model: str | None, max_requests: int | None, resume: str | None, permission_mode: str | None
) -> int:
    from pydantic_ai.exceptions import ModelAPIError, UnexpectedModelBehavior, UsageLimitExceeded

    from decode.agent.loop import UNSAVED
    from decode.entities.events import Notice, TextDelta, ToolCallFinished, ToolCallStarted, TurnFinished
    from decode.models.script import ScriptExhaustedError
    from decode.tools.process import end_all_on

    global _stop
    # SIGTERM, SIGHUP: every process the agent started ends at once, then the turn stops as
    # Ctrl-C stops it (and is saved); the run exits with 128 + the signal's number.
    _stop = end_all_on((signal.SIGTERM, signal.SIGHUP), asyncio.current_task())
    echo = OutputEcho()
    conversation = _build(model, max_requests, resume, permission_mode, echo)
    loop, session = conversation.loop, conversation.session
    commentary: list[str] = []
    saved, code, why = True, EXIT_OK, ""
    try:
        async for event in loop.run_turn(task):
            if isinstance(event, TextDelta):
                commentary.append(event.text)
            elif isinstance(event, ToolCallStarted):
                # Text the model wrote before calling a tool is commentary, not the answer.
                if text := "".join(commentary).strip():
                    progress(text)
                commentary.clear()
                progress(f"→ {event.call.summary()}")
            elif isinstance(event, ToolCallFinished):
                echo.end_line()
                mark = "✗" if event.result.is_error else "✓"
                progress(f"  {mark} {event.result.name} ({event.result.duration_s:.1f}s)")
                if event.result.is_error:  # why: a refusal by the permission rules, a bad argument…
                    progress(f"    {_short_line(event.result.content)}")
            elif isinstance(event, Notice):
                progress(f"decode: {event.level}: {event.message}")
                saved = saved and not event.message.startswith(UNSAVED)
            elif isinstance(event, TurnFinished):
                # The answer as it is for a file or a pipe; on a terminal, made visible too.
                click.echo(visible(event.output) if sys.stdout.isatty() else event.output)
    except asyncio.CancelledError as cancelled:  # Ctrl-C, SIGTERM, SIGHUP: keep what the turn did
        signum = _stop.signum
        name = signal.Signals(signum).name if signum is not None else ""
        note = f"[decode was stopped ({name}) before this turn finished.]" if name else None
        if _keep_unfinished(conversation, note, cancelled):
            _say_saved(session.session_id)
        if signum is None:
            raise  # Ctrl-C: asyncio.run raises KeyboardInterrupt, `run` exits 130
        progress(f"decode: stopped by {name}")
        return 128 + signum
    except UsageLimitExceeded:
        click.echo(
            f"decode: error: stopped at the request ceiling ({loop.max_requests}); raise it with --max-requests",
            err=True,
        )
        code, why = EXIT_REQUEST_LIMIT, f"the request ceiling ({loop.max_requests}) was reached"
    except ModelAPIError as exc:
        progress(f"decode: error: model request failed: {_short(exc)}")
        code, why = EXIT_FAILED, "a model request failed"
    except UnexpectedModelBehavior as exc:
        progress(f"decode: error: the model's response could not be used: {_short(exc)}")
        code, why = EXIT_FAILED, "the model's response could not be used"
    except ScriptExhaustedError as exc:
        progress(f"decode: error: {exc}")
        code, why = EXIT_FAILED, "the scripted model ran out of responses"
    except Exception as exc:  # a bug, not bad input: one line, the turn saved, the traceback in the log
        logger.debug("the run failed", exc_info=True)
        progress(f"decode: error: the run failed: {type(exc).__name__}: {_short(exc)}")
        code, why = EXIT_FAILED, f"an internal error ({type(exc).__name__})"
    if code != EXIT_OK:
        saved = _keep_unfinished(conversation, f"[This turn stopped before it finished: {why}.]")
    if saved:
        _say_saved(session.session_id)
    return code


def _say_saved(session_id: str) -> None:
    progress(f"decode: session {session_id} saved (continue it with --resume {session_id})")


def _keep_unfinished(conversation: "Conversation", note: str | None, cancelled: BaseException | None = None) -> bool:
    """Save the turn that stopped early, closed as an abort closes it (`harness/abort.py`): the
    results that came back, a synthetic one for each call that did not, and `note`. True if saved."""
    from pydantic_ai.exceptions import RunCancelled

    from decode.harness.abort import INTERRUPTED_NOTE, close_interrupted_turn

    loop = conversation.loop
    if loop.unfinished is None:
        return False  # it stopped before the run began: nothing to keep
    everything, new, usage = loop.unfinished
    if cancelled is not None and (state := RunCancelled.from_cancellation(cancelled)) is not None:
        everything, new = state.all_messages(), state.new_messages()  # with the partial response, if any
    if not new:
        return False
    kept = close_interrupted_turn(new, note or INTERRUPTED_NOTE)
    try:
        loop.keep_turn([*everything[: len(everything) - len(new)], *kept], kept, usage)
    except (OSError, ValueError) as exc:
        progress(f"decode: warning: could not save the session: {_short(exc)}")
        return False
    return True


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
                progress("  │ ", nl=False)
            progress(piece, nl=False)
            self.at_line_start = piece.endswith("\n")
            if self.at_line_start:
                self.lines += 1
                if self.lines == self.max_lines:
                    progress("  │ …")

    def end_line(self) -> None:
        """Finish a last line that had no newline, so the next progress line starts clean."""
        if not self.at_line_start:
            progress("")
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
