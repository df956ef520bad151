"""A headless run for scripts and CI: `decode run` with its output format, its Run Summary, and the
rules and instructions of its command line.

`FormattedRun` is the `HeadlessRun` of lesson 02 with what a program reading it needs: stdout in the
chosen format (`output.py`), the result object printed however the run ended (`finish`, once), and
`--summary-json PATH` written beside it. Progress stays on stderr (`FormattedProgress`: `-q` keeps
only warnings and errors, and the first error is the summary's).
"""

import json
import signal
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from decode.runtime.exits import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_SCHEMA
from decode.runtime.headless import HeadlessRun
from decode.runtime.options import HeadlessOptions
from decode.runtime.output import FormattedView, RunOutput
from decode.runtime.progress import ERROR, WARNING, Progress

if TYPE_CHECKING:
    from decode.agent.compose import Conversation


class FormattedProgress(Progress):
    """Progress lines for a run a program reads: `-q` keeps only warnings and errors, and the first
    error is kept for the Run Summary."""

    def __init__(self, *, quiet: bool = False) -> None:
        self.quiet = quiet
        self.first_error: str | None = None
        """The first error line of the run: the Run Summary's `error`."""
        self.on_retry: Callable[[str, int, float], None] | None = None
        """Told of each retry too (stream-json's `retry` event)."""

    def retry(self, error: str, attempt: int, delay: float) -> None:
        super().retry(error, attempt, delay)
        if self.on_retry is not None:
            self.on_retry(error, attempt, delay)

    def __call__(self, text: str, *, nl: bool = True) -> None:
        if text.startswith(ERROR) and self.first_error is None:
            self.first_error = text.removeprefix(ERROR)
        if self.quiet and not text.startswith((ERROR, WARNING)):
            return
        super().__call__(text, nl=nl)


class FormattedRun(HeadlessRun):
    """One `decode run` with the lesson-15 options (`HeadlessOptions`)."""

    def __init__(self, headless: HeadlessOptions) -> None:
        super().__init__()
        self.headless = headless
        self.output = RunOutput(headless.output_format, raw=headless.raw, partial=headless.partial)
        self.progress: FormattedProgress = FormattedProgress(quiet=headless.quiet)
        if headless.quiet:
            from decode.context.windows import no_guess_warning

            no_guess_warning()
        self.progress.on_retry = self.output.retry
        self.view = FormattedView(self.progress, self.output)  # it and its tool-output echo write to this progress
        self.finished: int | None = None
        """The code the run finished with, once its result is out (before its MCP servers are stopped)."""
        self.conversation: Conversation | None = None
        self.began = datetime.now(UTC)

    async def start(self, conversation: "Conversation") -> None:
        self.conversation = conversation
        self.headless.apply(conversation)  # --allowed-tools, --disallowed-tools, --append-system-prompt
        await super().start(conversation)
        self.output.start(conversation)  # stream-json: the `init` event (with each MCP server's state)

    def finish(self, code: int) -> int:
        """The result object on stdout (json, stream-json) and in `--summary-json PATH` (one that cannot
        be written is a warning: the exit code stays). Once only: the first code is the run's."""
        if self.finished is not None:
            return self.finished
        self.finished = code
        summary = self.output.summary
        summary.error = summary.error or self.progress.first_error
        if code == EXIT_INTERRUPTED:
            summary.error = summary.error or "interrupted"
        elif code > 128:
            summary.error = summary.error or f"stopped by {signal.Signals(code - 128).name}"
        summary.handback = self.handed_back
        summary.cache_read, summary.cache_write = self.cache_tokens()
        if self.conversation is not None and self.conversation.options.output_schema is not None and summary.result:
            summary.structured = json.loads(summary.result)  # `--json-schema`: the validated object's JSON
        result = self.output.finish(code)
        self.write_files(code, result)
        return code

    def write_files(self, code: int, result: dict[str, Any]) -> None:
        """`--summary-json PATH`: the result object; `-o FILE` (Codex's): the answer of a run that
        finished. A file that cannot be written is a warning: the exit code stays the run's."""
        from decode.runtime.summary import write_summary, write_text

        written: list[tuple[str, str | None]] = []
        if self.headless.summary_json is not None:
            written.append(("the summary", write_summary(self.headless.summary_json, result)))
        if self.headless.last_message is not None and code == 0:
            written.append(("the last message", write_text(self.headless.last_message, f"{result['result']}\n")))
        for what, problem in written:
            if problem is not None:
                self.progress.warning(f"could not write {what}: {problem}")

    def cache_tokens(self) -> tuple[int, int]:
        """The prompt-cache tokens (read, written) of this run's model responses (its subagents' not)."""
        from pydantic_ai.messages import ModelResponse

        if self.conversation is None:
            return 0, 0
        loop = self.conversation.loop
        messages = [*loop.history, *(loop.unfinished.new_messages if loop.unfinished else ())]
        mine = [m for m in messages if isinstance(m, ModelResponse) and m.timestamp >= self.began]
        return sum(m.usage.cache_read_tokens for m in mine), sum(m.usage.cache_write_tokens for m in mine)

    def say_saved(self, conversation: "Conversation") -> None:
        if conversation.options.session_persistence:  # else nothing was saved
            super().say_saved(conversation)

    async def end(self, conversation: "Conversation", code: int) -> int:
        if code == EXIT_FAILED and conversation.options.output_schema is not None:
            error = self.progress.first_error or ""
            code = EXIT_SCHEMA if "output retries" in error or "output validation" in error else code
        code = self.finish(code)
        self.output.close()  # a reader of the pipe sees its end now, before MCP servers stop
        return await super().end(conversation, code)
