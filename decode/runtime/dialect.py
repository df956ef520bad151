"""Another tool's vocabulary for a run's events, so a script written for it reads `decode run`.

`RunOutput` writes decode's own events; a `Dialect` is told the same things (the `init` object,
the turn starting, each Agent Event, the result object) and returns the lines the other tool
would have written for them. `stream-json` speaks Claude Code's messages beside decode's own
events (`decode.runtime.claude_messages`); `--json` speaks only Codex's `exec --json` events
(`decode.runtime.codex_events`). ADR-0136 says why.

A tool's outcome as both tools tell it is read here too: a refusal of the Permission Gate, and a
`bash` command's exit code and output.
"""

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from decode.entities import events
    from decode.entities.tool_calls import ToolResult

type Line = dict[str, Any]

REFUSALS = ("Permission denied", "Permission needed")
"""How the Permission Hook's refusals begin (`decode.permissions.hook.refusal`)."""


@dataclass(frozen=True)
class Retry:
    """A failed model request about to be retried, as each tool's stream tells it."""

    attempt: int
    """Which retry this is (1, 2…)."""
    max_retries: int
    delay_s: float
    status: int | None
    """The HTTP status the provider answered with; None for a timeout or a dropped connection."""
    error: str
    """What went wrong, one line (`decode.agent.failures.describe_error`)."""


def retry_of(error: BaseException, attempt: int, delay: float, max_retries: int) -> Retry:
    """The retry of a request that failed with `error` (`RetryingModel`'s `on_retry`)."""
    from pydantic_ai.exceptions import ModelHTTPError

    from decode.agent.failures import describe_error

    status = error.status_code if isinstance(error, ModelHTTPError) else None
    return Retry(attempt, max(max_retries, attempt), delay, status, describe_error(error))


class Dialect:
    """Says nothing; a subclass says what its tool would have written for each thing."""

    def init(self, init: Line) -> list[Line]:
        """The conversation is built (`init` is decode's own first event)."""
        return []

    def turn_started(self) -> list[Line]:
        """The task went to the model."""
        return []

    def event(self, event: "events.AgentEvent") -> list[Line]:
        """One event of the turn."""
        return []

    def retry(self, retry: Retry) -> list[Line]:
        """A failed model request is retried."""
        return []

    def subagent_event(self, call_id: str, event: "events.AgentEvent") -> list[Line]:
        """One event of a subagent's turn; `call_id` is the parent's `agent` call that runs it."""
        return []

    def finish(self, result: Line) -> list[Line]:
        """The run is over; `result` is the Run Summary's object."""
        return []


def dialect_for(output_format: str, *, partial: bool = False) -> Dialect | None:
    """The other tool's vocabulary an output format speaks too, if any."""
    if output_format == "stream-json":
        from decode.runtime.claude_messages import ClaudeMessages

        return ClaudeMessages(partial=partial)
    if output_format == "codex-json":
        from decode.runtime.codex_events import CodexEvents

        return CodexEvents()
    return None


def refused(result: "ToolResult") -> bool:
    """Did the Permission Gate refuse the call (a denial, or an ask no one could answer)?"""
    return result.is_error and result.content.startswith(REFUSALS)


def failed_command(result: "ToolResult") -> bool:
    """Did a `bash` call end badly: an exit code other than 0, a timeout, a command that could not
    start? The model reads that as an answer (the tool worked); a script reads it as an error."""
    if result.name != "bash":
        return False
    status = result.content.split("\n", 1)[0]
    if status.startswith("exit code: "):
        return status.removeprefix("exit code: ").split(" ", 1)[0] != "0"
    return status.startswith(("killed after", "Could not run the command"))


def command_outcome(content: str) -> tuple[int | None, str]:
    """A `bash` result's exit code (None when it timed out or never ran) and its output: stdout's
    text, then stderr's (`decode.tools.bash` writes a status line, then a section for each)."""
    status, _, rest = content.partition("\n")
    code: int | None = None
    if status.startswith("exit code: "):
        number = status.removeprefix("exit code: ").split(" ", 1)[0]
        code = int(number) if number.lstrip("-").isdigit() else None
    if not rest:
        return code, "" if code is not None else status
    stdout, _, stderr = rest.partition("\nstderr:")
    output = [_section(stdout.removeprefix("stdout:")), _section(stderr)]
    return code, "".join(text + "\n" for text in output if text)


def _section(text: str) -> str:
    """A section's text without its heading's remains: `" (empty)"` is nothing."""
    return "" if text.strip() == "(empty)" else text.removeprefix("\n")
