"""`decode run "TASK"`: one task, headless, the final answer alone on stdout.

Progress (tool calls, retries, notices) goes to stderr, so `decode run "…" > answer.md` captures
only the answer. Exit codes: 0 done, 1 the run failed, 2 usage or configuration error,
3 the request ceiling (`--max-requests`) was reached, 130 interrupted (Ctrl-C).
"""

import asyncio
import logging
import os
import signal  # [lesson 05]
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import click

from decode.logging import init_logger
from decode.permissions.modes import Mode  # [lesson 06]

# [lesson 15]
from decode.runtime.options import EXIT_CODES, HeadlessOptions, headless_options, take_headless_options
from decode.runtime.output import RunOutput

# [/lesson 15]
from decode.sandbox.modes import SandboxMode  # [lesson 14]
from decode.visible import visible

if TYPE_CHECKING:
    from decode.agent.compose import Conversation
    from decode.entities import events  # [lesson 12]
    from decode.entities.events import ToolOutputDelta  # [lesson 05]
    from decode.mcp.client_features import McpProgress  # [lesson 11]
    from decode.processes.signals import SignalStop  # [lesson 05]
    from decode.sandbox.workspace import Workspace  # [lesson 14]

init_logger()
logger = logging.getLogger(__name__)

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
EXIT_REQUEST_LIMIT = 3
EXIT_INTERRUPTED = 130


def progress(text: str, *, nl: bool = True) -> None:
    """A line on stderr. Made `visible()`: it carries text decode did not write (the model's, a
    tool's, a server's), and no escape sequence of it may act on the user's terminal."""
    # [lesson 15]
    # `-q` keeps warnings and errors; the first error is the Run Summary's `error`.
    if text.startswith("decode: error: ") and _output.summary.error is None:
        _output.summary.error = text.removeprefix("decode: error: ")
    if _quiet and not text.startswith(("decode: error", "decode: warning")):
        return
    # [/lesson 15]
    click.echo(visible(text), err=True, nl=nl)


# [lesson 15]
_output = RunOutput()
"""This run's output format and Run Summary (set by `run`)."""
_headless = HeadlessOptions()
"""This run's lesson-15 options (set by `run`)."""
_quiet = False
"""`-q`: no progress on stderr."""


# [/lesson 15]


def fail(message: str, code: int) -> NoReturn:
    """Print a one-line error to stderr and exit with `code`."""
    progress(f"decode: error: {message}")
    sys.exit(code)


# [lesson 06]
PERMISSION_MODES = tuple(mode.value for mode in Mode)


def _permission_mode(ctx: click.Context, param: click.Parameter, value: str | None) -> "Mode | None":
    """`--permission-mode` as a `Mode`."""
    return Mode.parse(value) if value else None


# [/lesson 06]
@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("task", required=False)
@click.option("-m", "--model", help="Model string, e.g. google-gla:gemini-flash-latest or script:turns.json.")
@click.option("--max-requests", type=click.IntRange(min=1), help="Stop after N model requests (exit code 3).")
# [lesson 08]
@click.option(
    "--resume",
    is_flag=False,
    flag_value="",
    metavar="[ID]",
    help="Continue saved session ID (or a unique prefix; `decode sessions` lists them), without ID the newest, "
    "with its model unless --model is given. Every run is saved under .decode/sessions/.",
)
# [/lesson 08]
# [lesson 06]
@click.option(
    "--permission-mode",
    type=click.Choice(PERMISSION_MODES),
    callback=_permission_mode,
    help="What runs without asking (the rules: `decode permissions`); headless, anything that would ask is refused "
    "and the model told why. Default: settings, else default.",
)
@click.option(
    "--trust-project-settings",
    is_flag=True,
    help="Put this project's own settings' allow rules and accept-edits mode in force for this run (without it, "
    "only those trusted before: `decode permissions trust`).",
)
# [/lesson 06]
# [lesson 11]
@click.option(
    "--trust-project-mcp",
    is_flag=True,
    help="Start the MCP servers of this project's .mcp.json (without it, only servers it was trusted with before).",
)
# [/lesson 11]
# [lesson 12]
@click.option(
    "--agent",
    metavar="NAME",
    help="The agent to be: build (the default), plan, explore, or one of yours (`decode agents` lists them).",
)
# [/lesson 12]
# [lesson 14]
@click.option(
    "--sandbox",
    type=click.Choice([mode.value for mode in SandboxMode]),
    help="Where the agent's commands run: none (here), bwrap, docker or modal. Default: SANDBOX_MODE, else none.",
)
@click.option(
    "--repo",
    metavar="PATH|URL",
    help="Clone this repository into a Workspace under .decode/ and work there; at the end the work is pushed "
    "back to it as branch decode/<session-id> (its checkout untouched). Default: SANDBOX_REPO.",
)
# [/lesson 14]
@headless_options  # [lesson 15]
def run(task: str | None, **options: Any) -> None:
    """Run TASK headless and print the final answer on stdout.

    TASK "-" reads the task from stdin. Exit codes: 0 done, 1 the run failed, 2 usage or
    configuration error, 3 request ceiling reached, 130 interrupted.
    """
    # [lesson 15]
    global _output, _headless, _quiet, _finished
    _finished = None
    _headless = take_headless_options(options)  # a bad rule: a usage error; `--cwd DIR`: now in DIR
    _output, _quiet = RunOutput(_headless.output_format, raw=_headless.raw), _headless.quiet
    # [/lesson 15]
    # [lesson 08]
    if task is None and options.get("resume"):  # `decode run --resume "TASK"`: the newest session
        task, options["resume"] = _resume_newest(options["resume"])
    # [/lesson 08]
    if task is None and sys.stdin is not None and not sys.stdin.isatty():  # `echo TASK | decode run`  # [lesson 15]
        task = "-"  # [lesson 15]
    if task is None or (task == "-" and sys.stdin is None):  # None: stdin is closed (`<&-`)
        raise click.UsageError("Missing argument 'TASK'" + (" (stdin is closed)." if sys.stdin is None else "."))
    task = _task_text(sys.stdin.buffer.read() if task == "-" else os.fsencode(task))
    if not task.strip():
        # [lesson 15]
        progress("decode: error: the task is empty")
        sys.exit(_finish(EXIT_USAGE))
        # [before lesson 15]
        # fail("the task is empty", EXIT_USAGE)
        # [/lesson 15]
    try:
        # [lesson 14]
        code = asyncio.run(_run_closing(task, options))
        # [before lesson 14]
        # code = asyncio.run(_run(task, options))
        # [/lesson 14]
    except KeyboardInterrupt:
        progress("decode: interrupted")
        code = EXIT_INTERRUPTED
    # [lesson 05]
    except asyncio.CancelledError:  # a signal that came after the turn was over
        code = 128 + (_stop.signum if _stop is not None and _stop.signum else signal.SIGTERM)
    # [/lesson 05]
    # [lesson 15]
    except SystemExit as exc:  # `fail()` during the run: a usage or configuration error
        code = exc.code if isinstance(exc.code, int) else EXIT_FAILED
    finished = _finish(code)  # the result, once out, keeps the answer's own code
    sys.exit(code if code > 128 else finished)  # a signal after it still ends the process as a signal does
    # [before lesson 15]
    # sys.exit(code)
    # [/lesson 15]


# [lesson 15]
run.epilog = EXIT_CODES  # at the end of `decode run --help`


_finished: int | None = None
"""The code the run finished with, once its result is out (before its MCP servers are stopped)."""


def _finish(code: int) -> int:
    """The run ended with `code`: its result object on stdout (json, stream-json) and in
    `--summary-json PATH` (one that cannot be written is a warning: the exit code stays). Once only."""
    global _finished
    if _finished is not None:
        return _finished
    _finished = code
    if code == EXIT_INTERRUPTED:
        _output.summary.error = _output.summary.error or "interrupted"
    elif code > 128:
        _output.summary.error = _output.summary.error or f"stopped by {signal.Signals(code - 128).name}"
    result = _output.finish(code)
    if _headless.summary_json is not None:
        from decode.runtime.summary import write_summary

        if (problem := write_summary(_headless.summary_json, result)) is not None:
            progress(f"decode: warning: could not write the summary: {problem}")
    return code


# [/lesson 15]


# [lesson 08]
def _resume_newest(value: str) -> tuple[str, str]:
    """`--resume` took the task as its value: (the task, "" for the newest session), unless it names a session."""
    from decode.context.catalog import find_session
    from decode.context.session_log import SessionError

    try:
        find_session(Path.cwd(), value)
    except SessionError:
        return value, ""
    raise click.UsageError(
        f"Missing argument 'TASK' (to continue session {value}: decode run --resume {value} \"TASK\")"
    )


# [/lesson 08]
def _task_text(raw: bytes) -> str:
    """The task as text. Bytes that are not UTF-8 (a Latin-1 file on stdin, an argument in
    another encoding, which Python hands over as surrogates) are replaced, and the user told."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        progress(f"decode: warning: the task is not valid UTF-8 (byte {exc.start}); undecodable bytes became U+FFFD")
        return raw.decode("utf-8", errors="replace")


# [lesson 05]
_stop: "SignalStop | None" = None
"""Which signal is stopping this run, once one is (SIGTERM, SIGHUP)."""


# [/lesson 05]
def _build(options: dict[str, Any]) -> "Conversation":
    """The Agent Loop of this run, from the composition root; a one-line error (exit 2) if it cannot be built.

    `options` are `LoopOptions` fields: the command line's, and the front end's callbacks."""
    from decode.agent.compose import LoopOptions, build_loop
    from decode.config.loading import ConfigError, load_settings
    from decode.context.session_log import SessionError  # [lesson 08]
    from decode.models.errors import ModelConfigError
    from decode.permissions.settings_files import repository_grants  # [lesson 06]
    from decode.permissions.types import Mode  # [lesson 08]
    from decode.sandbox.types import SandboxError  # [lesson 14]

    def on_retry(error: BaseException, attempt: int, delay: float) -> None:
        progress(f"decode: model error ({_short(error)}); retry {attempt} in {delay:.1f}s")

    try:
        settings = load_settings()
        init_logger(settings.log_level)
        # The Harness Home is the launch directory. Headless: nothing here asks the user anything.
        options.setdefault("trace_name", "decode_run")  # each turn's trace, when tracing is on  # [lesson 16]
        conversation = build_loop(LoopOptions(home=Path.cwd(), on_retry=on_retry, **options), settings)
    except (
        ConfigError,
        ModelConfigError,
        SessionError,  # [lesson 08]
        SandboxError,  # [lesson 14]
    ) as exc:
        fail(str(exc), EXIT_USAGE)
    # [lesson 06]
    gate = conversation.gate  # once per run: broken files, ignored modes, what the repository grants itself
    for problem in [*gate.problems, *repository_grants(gate.settings)]:
        progress(f"decode: {problem.level}: {problem}")
    # [/lesson 06]
    if conversation.resumed_mode and conversation.gate.mode is not Mode.DEFAULT:  # [lesson 08]
        progress(f"decode: resuming in permission mode {conversation.gate.mode}")  # [lesson 08]
    # [lesson 12]
    agent = conversation.agent.definition.name if conversation.agent is not None else "build"
    if options.get("resume") is not None and options.get("agent") is None and agent != "build":
        progress(f"decode: resuming as agent {agent}")  # the agent the session was, as its mode
    # [/lesson 12]
    return conversation


# [lesson 14]
async def _run_closing(task: str, options: dict[str, Any]) -> int:
    """`_run`, then every sandbox it opened closed, however it ended (what runs inside stops)."""
    try:
        return await _run(task, options)
    finally:
        from decode.sandbox.backends import close_sandboxes

        await close_sandboxes()


# [/lesson 14]
async def _run(task: str, options: dict[str, Any]) -> int:
    from pydantic_ai.exceptions import ModelAPIError, UnexpectedModelBehavior, UsageLimitExceeded

    from decode.agent.compose import close_conversation  # [lesson 13]
    from decode.context.session import UNSAVED  # [lesson 08]
    from decode.entities.events import (
        Notice,
        TextDelta,
        TodosUpdated,  # [lesson 10]
        ToolCallFinished,
        ToolCallStarted,
        TurnFinished,
    )
    from decode.entities.todos import checklist  # [lesson 10]
    from decode.models.script import ScriptExhaustedError
    from decode.processes.signals import end_all_on  # [lesson 05]

    # [lesson 05]
    global _stop
    # SIGTERM, SIGHUP: every process the agent started ends at once, then the turn stops as
    # Ctrl-C stops it; the run exits with 128 + the signal's number.
    _stop = end_all_on((signal.SIGTERM, signal.SIGHUP), asyncio.current_task())
    echo = options["on_tool_output"] = OutputEcho()
    # [/lesson 05]
    options["on_subagent"] = _show_subagent  # each subagent's progress, one line per step  # [lesson 12]
    conversation = _build(options)
    _headless.apply(conversation)  # --allowed-tools, --disallowed-tools, --append-system-prompt  # [lesson 15]
    # [lesson 14]
    from decode.sandbox.backends import start_sandbox

    if (problem := await start_sandbox(conversation.loop.deps.executor)) is not None:
        fail(problem, EXIT_USAGE)  # the sandbox is closed on the way out (`_run_closing`)
    # [/lesson 14]
    # [lesson 11]
    if conversation.mcp is not None:  # a server's progress on a call: a line on stderr
        conversation.mcp.features.on_progress = _show_mcp_progress
        await conversation.mcp.wait_for_starting()  # the first request would wait too; each failure is named
    # [/lesson 11]
    _output.start(conversation)  # stream-json: the `init` event (with each MCP server's state)  # [lesson 15]
    loop = conversation.loop
    commentary: list[str] = []
    called: dict[str, str] = {}  # call id -> `read(a.txt)`: parallel calls finish in any order
    code = EXIT_OK
    saved, why = True, ""  # [lesson 08]
    try:
        async for event in loop.run_turn(task):
            _output.event(event)  # [lesson 15]
            if isinstance(event, TextDelta):
                commentary.append(event.text)
            elif isinstance(event, ToolCallStarted):
                # Text the model wrote before calling a tool is commentary, not the answer.
                if text := "".join(commentary).strip():
                    progress(text)
                commentary.clear()
                called[event.call.id] = event.call.summary()
                progress(f"→ {called[event.call.id]}")
            elif isinstance(event, ToolCallFinished):
                echo.end_line()  # [lesson 05]
                mark = "✗" if event.result.is_error else "✓"
                shown = called.pop(event.result.call_id, event.result.name)
                progress(f"  {mark} {shown} ({event.result.duration_s:.1f}s)")
                if event.result.is_error:  # why: a bad argument, a failed command, a refusal…
                    progress(f"    {_short_line(event.result.content)}")
            # [lesson 10]
            elif isinstance(event, TodosUpdated):  # the whole checklist, each time it changes
                progress("  to-do list:" if event.todos else "  to-do list: (empty)")
                for line in checklist(event.todos).splitlines():
                    progress(f"    {line}")
            # [/lesson 10]
            elif isinstance(event, Notice):
                progress(f"decode: {event.level}: {event.message}")
                saved = saved and not event.message.startswith(UNSAVED)  # [lesson 08]
            elif isinstance(event, TurnFinished):
                # [lesson 15]
                _output.answer(event.output)  # on a terminal made visible, on a pipe plain (runtime/output.py)
                # [before lesson 15]
                # # The answer as it is for a file or a pipe; on a terminal, made visible too.
                # click.echo(visible(event.output) if sys.stdout.isatty() else event.output)
                # [/lesson 15]
    # [lesson 05]
    except asyncio.CancelledError:  # Ctrl-C, SIGTERM, SIGHUP
        signum = _stop.signum
        name = signal.Signals(signum).name if signum is not None else ""
        # [lesson 08]
        # Keep what the turn did; the cancellation being handled carries its partial response.
        note = f"[decode was stopped ({name}) before this turn finished.]" if name else None
        if _keep_unfinished(conversation, note, sys.exception()):
            _say_saved(conversation.session.session_id)
        # [/lesson 08]
        if signum is None:
            raise  # Ctrl-C: asyncio.run raises KeyboardInterrupt, `run` exits 130
        progress(f"decode: stopped by {name}")
        return 128 + signum
    # [/lesson 05]
    except UsageLimitExceeded:
        # [lesson 15]
        progress(f"decode: error: stopped at the request ceiling ({loop.max_requests}); raise it with --max-requests")
        # [before lesson 15]
        # click.echo(
        #     f"decode: error: stopped at the request ceiling ({loop.max_requests}); raise it with --max-requests",
        #     err=True,
        # )
        # [/lesson 15]
        code = EXIT_REQUEST_LIMIT
        why = f"the request ceiling ({loop.max_requests}) was reached"  # [lesson 08]
    except ModelAPIError as exc:
        progress(f"decode: error: model request failed: {_short(exc)}")
        code = EXIT_FAILED
        why = "a model request failed"  # [lesson 08]
    except UnexpectedModelBehavior as exc:
        progress(f"decode: error: the model's response could not be used: {_short(exc)}")
        code = EXIT_FAILED
        why = "the model's response could not be used"  # [lesson 08]
    except ScriptExhaustedError as exc:
        progress(f"decode: error: {exc}")
        code = EXIT_FAILED
        why = "the scripted model ran out of responses"  # [lesson 08]
    except Exception as exc:  # a bug, not bad input: one line here, the traceback in the log
        logger.debug("the run failed", exc_info=True)
        progress(f"decode: error: the run failed: {type(exc).__name__}: {_short(exc)}")
        code = EXIT_FAILED
        why = f"an internal error ({type(exc).__name__})"  # [lesson 08]
    # [lesson 13]
    finally:
        await close_conversation(conversation)  # its language servers stop with the run
    # [/lesson 13]
    # [lesson 08]
    # A run that stopped early is saved all the same (its partial turn closed, as an abort in the
    # REPL closes it), so `--resume ID` continues it.
    if code != EXIT_OK:
        saved = _keep_unfinished(conversation, f"[This turn stopped before it finished: {why}.]")
    if saved:
        _say_saved(conversation.session.session_id)
    # [/lesson 08]
    # [lesson 14]
    if conversation.workspace is not None:  # `--repo`: the work goes back as a branch
        code = await _hand_back(conversation.workspace, conversation, code)
    # [/lesson 14]
    code = _finish(code)  # [lesson 15]
    _output.close()  # [lesson 15]
    # [lesson 11]
    if conversation.mcp is not None:  # the answer and the result are out first: a slow server delays only the exit
        await conversation.mcp.close(leaving=True)  # a signal now still exits 128 + it (`run`)
    # [/lesson 11]
    return code


# [lesson 14]
async def _hand_back(workspace: "Workspace", conversation: "Conversation", code: int) -> int:
    """Hand the Workspace back (`decode.sandbox.handback`) and say what was shipped; a push that
    failed turns a successful run's exit code into 1 (the branch is kept, and the report says where)."""
    from decode.sandbox.handback import Outcome, hand_back

    result = await hand_back(workspace, conversation.loop.deps.executor)  # still open: a remote one answers
    _output.summary.handback = result  # [lesson 15]
    lines = result.report()
    progress(f"decode: {lines[0]}")
    for line in lines[1:]:
        progress(line)
    failed = result.outcome in (Outcome.KEPT, Outcome.FAILED)
    return EXIT_FAILED if failed and code == EXIT_OK else code


# [/lesson 14]


# [lesson 08]
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


# [/lesson 08]
# [lesson 11]
def _show_mcp_progress(update: "McpProgress") -> None:
    """An MCP server's progress on a running call: `  ⋯ mcp__s__t 3/10 (30%) · copying`."""
    progress(f"  ⋯ {update.tool} {update.line()}")
    _output.mcp_progress(update)  # [lesson 15]


# [/lesson 11]
# [lesson 12]
def _show_subagent(update: "events.SubagentProgress") -> None:
    """A subagent started, called a tool or ended: `  ⋮ explore-1a2b3c4d · find tests · grep(x) · 2 requests`."""
    progress(f"  ⋮ {update.agent_id} · {update.line().removeprefix(update.agent).lstrip(' ·')}")
    _output.subagent(update)  # [lesson 15]


# [/lesson 12]
# [lesson 05]
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


# [/lesson 05]
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
