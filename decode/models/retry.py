"""Retrying transient model errors with exponential back-off.

Providers fail now and then: 429 (rate limited), 5xx (overloaded), a timeout. Those are worth
another try; a 400 or 401 is not. `RetryingModel` wraps any pydantic-ai model and retries a
request that failed *before* its first response event reached the agent, so a retry never
duplicates half an answer. That covers streaming too: pydantic-ai's models read the first chunk
of a stream before `request_stream()` hands it over, so an error status or a timeout (even
Gemini's, which only arrives with the first chunk) surfaces while the stream is being opened.
The SDKs' own retries are switched off (see `gateway.py`) so this is the one place the policy lives.

Whatever finally escapes, while opening or mid-stream, is in pydantic-ai's words: `ModelAPIError`
(the request failed; `ModelHTTPError` for an error status) or `UnexpectedModelBehavior` (the answer
could not be read), so a front end catches those two instead of every SDK's and HTTP client's own.
"""

import asyncio
import logging
from collections.abc import AsyncGenerator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any, NoReturn

import httpx2
from pydantic_ai import RunContext
from pydantic_ai.exceptions import AgentRunError, ModelAPIError, ModelHTTPError, UnexpectedModelBehavior, UserError
from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models import Model, ModelRequestParameters, StreamedResponse
from pydantic_ai.models.wrapper import WrapperModel
from pydantic_ai.settings import ModelSettings

logger = logging.getLogger(__name__)

MAX_RETRY_AFTER_S = 60.0
"""A server asking us to wait longer than this gets this long: the user is watching."""

OnRetry = Callable[[BaseException, int, float], None]
"""Called before each retry with the error, the retry number (1-based) and the delay in seconds."""


def is_transient(error: BaseException) -> bool:
    """True for errors a later attempt may not hit: 408, 429, 5xx, timeouts, dropped connections."""
    if isinstance(error, ModelHTTPError):
        return error.status_code in (408, 429) or error.status_code >= 500
    if isinstance(error, ModelAPIError):
        # Connection problems and timeouts, mapped by pydantic-ai without a status code.
        return True
    # Some SDKs (google-genai) let the HTTP client's own errors through unmapped.
    return isinstance(error, httpx2.TransportError | TimeoutError)


def retry_delay(error: BaseException, attempt: int, base_delay: float) -> float:
    """Seconds to wait before retry number `attempt` (1-based): Retry-After if given, else doubling."""
    if isinstance(error, ModelHTTPError) and error.headers:
        seconds = _retry_after_seconds(error.headers.get("retry-after"))
        if seconds is not None:
            return min(max(seconds, 0.0), MAX_RETRY_AFTER_S)
    return base_delay * 2 ** (attempt - 1)


def _retry_after_seconds(value: str | None) -> float | None:
    """Retry-After is either a number of seconds or an HTTP date; None if absent or unreadable."""
    if value is None:
        return None
    try:
        return float(value)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:  # HTTP dates are GMT; a naive result means the zone was missing
        when = when.replace(tzinfo=UTC)
    return (when - datetime.now(UTC)).total_seconds()


def as_model_error(error: Exception, model_name: str) -> Exception:
    """The error in pydantic-ai's words: SDK and HTTP-client exceptions become one of its two kinds."""
    if isinstance(error, AgentRunError | UserError):
        return error
    if is_transient(error):
        what = "timed out" if isinstance(error, httpx2.TimeoutException | TimeoutError) else "failed"
        return ModelAPIError(model_name, f"request {what} ({type(error).__name__}{_detail(error)})")
    # An SDK choking on the body: invalid JSON, a missing field, a list where an object belongs.
    return UnexpectedModelBehavior(f"unreadable response from {model_name} ({type(error).__name__}{_detail(error)})")


DROPS = frozenset({"RemoteProtocolError", "ReadError", "IncompleteRead"})
"""The HTTP clients' names (httpx's, httpx2's, http.client's) for a connection closed mid-body."""


def dropped(error: BaseException) -> bool:
    """True when `error`, or what caused it, is the connection closing before the answer was whole."""
    seen: BaseException | None = error
    for _ in range(10):  # causes chain through the SDK's and pydantic-ai's wrappers
        if seen is None:
            return False
        if isinstance(seen, ConnectionError) or type(seen).__name__ in DROPS:
            return True
        seen = seen.__cause__ or seen.__context__
    return False


ENDED_EMPTY = "the connection dropped: the stream ended before any answer"
EMPTY_STREAM = "Streamed response ended without content or tool calls"
"""pydantic-ai's words for a stream that closed before its first event."""


def ended_empty(response: StreamedResponse) -> bool:
    """The stream ended cleanly with nothing in it and no finish reason (a proxy closed it): not an
    empty answer for pydantic-ai to ask for again and again ("Exceeded maximum output retries")."""
    answer = response.get()
    return not answer.parts and answer.finish_reason is None


def _detail(error: Exception) -> str:
    text = " ".join(str(error).split())
    return f": {text[:200]}" if text else ""


class RetryingModel(WrapperModel):
    """A model that retries transient failures up to `max_retries` times."""

    def __init__(
        self,
        wrapped: Model,
        *,
        max_retries: int = 3,
        base_delay: float = 1.0,
        on_retry: OnRetry | None = None,
    ) -> None:
        super().__init__(wrapped)
        self.max_retries = max_retries
        self.base_delay = base_delay
        self.on_retry = on_retry

    async def _attempts[T](self, call: Callable[[], Awaitable[T]]) -> T:
        attempt = 0
        while True:
            try:
                return await call()
            except Exception as error:
                attempt += 1
                if attempt > self.max_retries or not is_transient(error):
                    self._give_up(error)
                await self._pause(error, attempt)

    def _give_up(self, error: Exception) -> NoReturn:
        failure = as_model_error(error, self.model_name)
        if failure is error:
            raise error
        raise failure from error

    async def _pause(self, error: BaseException, attempt: int) -> None:
        delay = retry_delay(error, attempt, self.base_delay)
        logger.info("model request failed (%s); retry %d/%d in %.1fs", error, attempt, self.max_retries, delay)
        if self.on_retry is not None:
            self.on_retry(error, attempt, delay)
        await asyncio.sleep(delay)

    async def request(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
    ) -> ModelResponse:
        return await self._attempts(lambda: self.wrapped.request(messages, model_settings, model_request_parameters))

    @asynccontextmanager
    async def request_stream(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
        run_context: RunContext[Any] | None = None,
    ) -> AsyncGenerator[StreamedResponse]:
        async def open_stream() -> tuple[AsyncExitStack, StreamedResponse]:
            stack = AsyncExitStack()
            try:
                stream = self.wrapped.request_stream(messages, model_settings, model_request_parameters, run_context)
                return stack, await stack.enter_async_context(stream)
            except UnexpectedModelBehavior as error:
                await stack.aclose()
                if str(error) == EMPTY_STREAM:  # closed before its first event: nothing seen, worth a retry
                    raise ModelAPIError(self.model_name, ENDED_EMPTY) from error
                raise
            except BaseException:
                await stack.aclose()
                raise

        stack, response = await self._attempts(open_stream)
        try:
            async with stack:
                yield response
        except Exception as error:
            # Once events flow, a failure ends the request: a retry would repeat what the agent has seen.
            if dropped(error):
                raise ModelAPIError(self.model_name, f"the connection dropped mid-answer{_detail(error)}") from error
            if isinstance(error, UnexpectedModelBehavior) and ended_empty(response):
                raise ModelAPIError(self.model_name, ENDED_EMPTY) from error
            self._give_up(error)
        if ended_empty(response):
            raise ModelAPIError(self.model_name, ENDED_EMPTY)
