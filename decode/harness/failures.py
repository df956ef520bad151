"""Why a turn failed, in one line the user can act on.

A failed turn is not a crash: the conversation stays as it was before the prompt, the front end
shows this line and waits for the next prompt. Imports are inside the function: the REPL loads
this module before pydantic-ai is imported.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from decode.agent.loop import AgentLoop

logger = logging.getLogger(__name__)

MAX_LENGTH = 300


class LoopUnavailable(Exception):
    """There is no Agent Loop to run a turn on; the message says why (a missing key, a bad setting)."""


def describe_error(error: BaseException) -> str:
    """A one-line description of a model error, without dumping a whole response body."""
    from pydantic_ai.exceptions import ModelHTTPError

    if isinstance(error, ModelHTTPError):
        return f"HTTP {error.status_code} from {error.model_name}"
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= MAX_LENGTH else text[: MAX_LENGTH - 1] + "…"


def failure_message(error: Exception, loop: AgentLoop | None) -> str:
    """What went wrong with a turn, for the user (the full traceback goes to the debug log)."""
    from pydantic_ai.exceptions import ModelAPIError, UnexpectedModelBehavior, UsageLimitExceeded

    from decode.models.script import ScriptExhaustedError

    if isinstance(error, LoopUnavailable | ScriptExhaustedError):
        return str(error)
    if isinstance(error, UsageLimitExceeded):
        ceiling = f"{loop.max_requests} per turn; " if loop is not None else ""
        return f"stopped at the request ceiling ({ceiling}raise it with --max-requests)"
    if isinstance(error, ModelAPIError):
        return f"model request failed: {describe_error(error)}"
    if isinstance(error, UnexpectedModelBehavior):
        return f"the model's response could not be used: {describe_error(error)}"
    logger.debug("turn failed", exc_info=error)  # a bug: the session (and its history) carries on
    return f"the turn failed: {type(error).__name__}: {describe_error(error)}"
