"""Why a turn failed, in one line the user can act on: the one place a failure becomes words.

Every front end shows the same line for the same failure (the REPL as `error: …`, `decode run` as
`decode: error: …`): `describe_failure` is the only mapping from an exception to it. A failed turn
is not a crash: the front end shows the line and carries on. Imports are inside the functions: the
REPL loads this module before pydantic-ai is imported.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from decode.agent.loop import AgentLoop

logger = logging.getLogger(__name__)

MAX_LENGTH = 300
REASON_LENGTH = 200


class LoopUnavailable(Exception):
    """There is no Agent Loop to run a turn on; the message says why (a missing key, a bad setting)."""


@dataclass(frozen=True)
class Failure:
    """A failed turn, for people: `line` for the user, `cause` for the note a kept turn ends with."""

    line: str
    """`model request failed: HTTP 400 from gpt-x: context_length_exceeded`."""
    cause: str
    """`a model request failed`: what `[This turn stopped before it finished: …]` tells the model."""
    at_ceiling: bool = False
    """The request ceiling stopped it (`decode run` exits 3)."""


def describe_error(error: BaseException) -> str:
    """A one-line description of an error: an HTTP error with the provider's own reason, never a whole body."""
    from pydantic_ai.exceptions import ModelHTTPError

    if isinstance(error, ModelHTTPError):
        reason = provider_reason(error.body)
        return f"HTTP {error.status_code} from {error.model_name}" + (f": {reason}" if reason else "")
    return one_line(str(error), MAX_LENGTH) or type(error).__name__


def provider_reason(body: object) -> str:
    """The provider's one-line reason from an error body (`{"error": {"message": …}}` or similar)."""
    if isinstance(body, dict):
        inner = body.get("error", body)
        message = inner.get("message") if isinstance(inner, dict) else inner
        if isinstance(message, str):
            return one_line(message, REASON_LENGTH)
    return ""


def one_line(text: str, width: int) -> str:
    """`text` with its whitespace runs as single spaces, cut to `width` characters."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def describe_failure(error: BaseException, loop: AgentLoop | None) -> Failure:
    """What went wrong with a turn (the full traceback of a bug goes to the debug log)."""
    from pydantic_ai.exceptions import ModelAPIError, UnexpectedModelBehavior, UsageLimitExceeded

    from decode.models.script import ScriptExhaustedError

    if isinstance(error, LoopUnavailable):
        return Failure(str(error), str(error))
    if isinstance(error, ScriptExhaustedError):
        return Failure(str(error), "the scripted model ran out of responses")
    if isinstance(error, UsageLimitExceeded):
        ceiling = f" ({loop.max_requests} per turn)" if loop is not None else ""
        line = f"stopped at the request ceiling{ceiling}; raise it with --max-requests"
        return Failure(line, f"the request ceiling{ceiling} was reached", at_ceiling=True)
    if isinstance(error, ModelAPIError):
        return Failure(f"model request failed: {describe_error(error)}", "a model request failed")
    if isinstance(error, UnexpectedModelBehavior):
        line = f"the model's response could not be used: {describe_error(error)}"
        return Failure(line, "the model's response could not be used")
    logger.debug("turn failed", exc_info=error)  # a bug: the session (and its history) carries on
    name = type(error).__name__
    return Failure(f"the turn failed: {name}: {describe_error(error)}", f"an internal error ({name})")
