"""`decode run "TASK"`: one task, headless, the final answer alone on stdout.

Progress (tool calls, retries, notices) goes to stderr, so `decode run "…" > answer.md` captures
only the answer. Exit codes: 0 done, 1 the run failed, 2 usage or configuration error,
3 the request ceiling (`--max-requests`) was reached, 130 interrupted (Ctrl-C).

This module is the command: its options (`cli_options.py`), the task read from the command line
or stdin, and the exit code. The run itself, one turn through the Harness's Turn Runner as the
REPL's turns go, is `headless.py`.
"""

import asyncio
import os
import sys
from pathlib import Path
from typing import Any, BinaryIO

import click

from decode.logging import init_logger
from decode.runtime.cli_options import RUN_ONLY, SHARED, settle_shared, with_options
from decode.runtime.exits import EXIT_INTERRUPTED, EXIT_USAGE, RunError
from decode.runtime.formatted_run import FormattedRun
from decode.runtime.headless import HeadlessRun
from decode.runtime.options import EXIT_CODES, headless_options, take_headless_options

init_logger()


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("task", required=False)
@with_options([*SHARED, *RUN_ONLY])
@headless_options  # [lesson 20]
def run(task: str | None, **options: Any) -> None:
    """Run TASK headless and print the final answer on stdout.

    TASK "-" reads the task from stdin. Exit codes: 0 done, 1 the run failed, 2 usage or
    configuration error, 3 request ceiling reached, 130 interrupted.
    """
    # [lesson 20]
    job = FormattedRun(take_headless_options(options))  # a bad rule: a usage error; `--cwd DIR`: now in DIR
    # [before lesson 20]
    # job = HeadlessRun()
    # [/lesson 20]
    settle_shared(options, Path.cwd())  # `--settings` read (14: `--add-dir` checked): exit 2 if unusable  # [lesson 06]
    if task is None and options.get("resume"):  # `decode run --resume "TASK"`: the newest session  # [lesson 11]
        task, options["resume"] = _resume_newest(options["resume"])
    if task is None and sys.stdin is not None and not sys.stdin.isatty():  # `echo TASK | decode run`  # [lesson 20]
        task = "-"
    if task is None or (task == "-" and sys.stdin is None):  # None: stdin is closed (`<&-`)
        raise click.UsageError("Missing argument 'TASK'" + (" (stdin is closed)." if sys.stdin is None else "."))
    task = _read_task(job, task)
    if not task.strip():
        job.progress.error("the task is empty")
        sys.exit(job.finish(EXIT_USAGE))
    code = _run(job, task, options)
    finished = job.finish(code)  # the result, once out, keeps the answer's own code
    sys.exit(code if code > 128 else finished)  # a signal after it still ends the process as a signal does


run.epilog = EXIT_CODES  # at the end of `decode run --help`  # [lesson 20]


def _run(job: HeadlessRun, task: str, options: dict[str, Any]) -> int:
    """`job.drive(task)` on a fresh event loop; the exit code, however it ended."""
    try:
        # [lesson 17]
        return asyncio.run(_drive_closing(job, task, options))
        # [before lesson 17]
        # return asyncio.run(job.drive(task, options))
        # [/lesson 17]
    except KeyboardInterrupt:  # Ctrl-C before the turn began (the turn itself ends as an abort)
        job.progress("decode: interrupted")
        return EXIT_INTERRUPTED
    # [lesson 05]
    except asyncio.CancelledError:  # a signal that came after the turn was over
        from signal import SIGTERM

        return 128 + (job.stop.signum if job.stop is not None and job.stop.signum else SIGTERM)
    # [/lesson 05]
    except RunError as exc:  # the run could not start: a usage or configuration error
        job.progress.error(str(exc))
        return exc.code


async def _drive_closing(job: HeadlessRun, task: str, options: dict[str, Any]) -> int:  # [lesson 17]
    """`job.drive`, then every sandbox it opened closed, however it ended (what runs inside stops)."""
    try:
        return await job.drive(task, options)
    finally:
        from decode.sandbox.backends import close_sandboxes

        await close_sandboxes()


def _resume_newest(value: str) -> tuple[str, str]:  # [lesson 11]
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


def _read_task(job: HeadlessRun, task: str) -> str:
    """The task as text: stdin's for "-", else the command line's."""
    # [lesson 20]
    # With a task on the command line, what is piped to stdin goes with it as a fenced block
    # (`git diff | decode run "review"`, `decode.runtime.stdin`); binary or over-size stdin: exit 2.
    from decode.config.loading import ConfigError, load_settings
    from decode.runtime.stdin import WAIT_S, StdinError, read_input, readable, with_input

    try:
        wait = load_settings().stdin_wait  # the run loads them anyway: once a process
    except ConfigError:  # said when the run builds its loop
        wait = WAIT_S
    try:
        if task == "-":
            return _task_text(job, read_input(sys.stdin.buffer) or b"")
        text = _task_text(job, os.fsencode(task))
        piped = read_input(sys.stdin.buffer, wait_s=wait) if readable(_stdin()) else b""
    except StdinError as exc:
        job.progress.error(str(exc))
        sys.exit(job.finish(EXIT_USAGE))
    if piped is None:
        job.progress.warning(f"nothing came on stdin in {wait:g}s; running without it (< /dev/null skips the wait)")
    if not piped or not piped.strip():
        return text
    return with_input(text, _task_text(job, piped))
    # [before lesson 20]
    # return _task_text(job, sys.stdin.buffer.read() if task == "-" else os.fsencode(task))
    # [/lesson 20]


def _stdin() -> "BinaryIO | None":  # [lesson 20]
    """stdin's bytes, or None when it is closed (`<&-`)."""
    return sys.stdin.buffer if sys.stdin is not None else None


def _task_text(job: HeadlessRun, raw: bytes) -> str:
    """The task as text. Bytes that are not UTF-8 (a Latin-1 file on stdin, an argument in
    another encoding, which Python hands over as surrogates) are replaced, and the user told."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        job.progress.warning(f"the task is not valid UTF-8 (byte {exc.start}); undecodable bytes became U+FFFD")
        return raw.decode("utf-8", errors="replace")
