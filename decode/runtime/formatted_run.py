"""A headless run for scripts and CI: `decode run` with its output format, its Run Summary, and the
rules and instructions of its command line.

`FormattedRun` is the `HeadlessRun` of lesson 02 with what a program reading it needs: stdout in the
chosen format (`output.py`), the result object printed however the run ended (`finish`, once), and
`--summary-json PATH` written beside it. Progress stays on stderr (`FormattedProgress`: `-q` keeps
only warnings and errors, and the first error is the summary's).
"""

import json
import signal
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
        self.view = FormattedView(self.progress, self.output)  # it and its tool-output echo write to this progress
        self.finished: int | None = None
        """The code the run finished with, once its result is out (before its MCP servers are stopped)."""
        self.conversation: Conversation | None = None

    def build(self, options: dict[str, Any]) -> "Conversation":
        if self.output.dialect is not None:  # each subagent's messages too, in the other tool's words
            options["on_subagent_event"] = self.output.subagent_event
        return super().build(options)

    def retried(self, error: BaseException, attempt: int, delay: float) -> None:
        super().retried(error, attempt, delay)
        self.output.retry(error, attempt, delay)  # stream-json's `retry` event, the other tool's too

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
