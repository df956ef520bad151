"""Retrying transient model errors with exponential back-off.

Providers fail now and then: 429 (rate limited), 5xx (overloaded), a timeout. Those are worth
another try; a 400 or 401 is not. `RetryingModel` wraps any pydantic-ai model and retries a
request that failed *before* its first response byte reached the agent, so a retry never
duplicates half an answer. The SDKs' own retries are switched off (see `gateway.py`) so this is
the one place the policy lives.
"""

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

import httpx2
from pydantic_ai.exceptions import ModelAPIError, ModelHTTPError
from pydantic_ai.messages import ModelMessage, ModelResponse
from pydantic_ai.models import Model, ModelRequestParameters, StreamedResponse
from pydantic_ai.models.wrapper import WrapperModel
from pydantic_ai.settings import ModelSettings

logger = logging.getLogger(__name__)

MAX_RETRY_AFTER_S = 60.0


def is_transient(error: BaseException) -> bool:
    """True for errors a later attempt may not hit: 408, 429, 5xx, timeouts, dropped connections."""
    if isinstance(error, ModelHTTPError):
        return error.status_code in (408, 429) or error.status_code >= 500
    if isinstance(error, ModelAPIError):
        # Connection problems and timeouts, mapped by pydantic-ai without a status code.
        return True
    return isinstance(error, httpx2.TransportError | TimeoutError)


def retry_delay(error: BaseException, attempt: int, base_delay: float) -> float:
    """Seconds to wait before retry number `attempt` (1-based): Retry-After if given, else doubling."""
    if isinstance(error, ModelHTTPError) and error.headers:
        retry_after = error.headers.get("retry-after")
        if retry_after is not None:
            try:
                return min(max(float(retry_after), 0.0), MAX_RETRY_AFTER_S)
            except ValueError:
                pass  # an HTTP date: fall back to our own schedule
    return base_delay * 2 ** (attempt - 1)


OnRetry = Callable[[BaseException, int, float], None]


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

    async def _pause(self, error: BaseException, attempt: int) -> None:
        delay = retry_delay(error, attempt, self.base_delay)
        logger.info("model request failed (%s); retry %d/%d in %.1fs", error, attempt, self.max_retries, delay)
        if self.on_retry is not None:
            self.on_retry(error, attempt, delay)
        await asyncio.sleep(delay)

    async def _attempts[T](self, call: Callable[[], Awaitable[T]]) -> T:
        attempt = 0
        while True:
            try:
                return await call()
            except Exception as error:
                attempt += 1
                if attempt > self.max_retries or not is_transient(error):
                    raise
                await self._pause(error, attempt)

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
        run_context: Any = None,
    ) -> AsyncIterator[StreamedResponse]:
        async def open_stream() -> tuple[AsyncExitStack, StreamedResponse]:
            stack = AsyncExitStack()
            try:
                stream = self.wrapped.request_stream(messages, model_settings, model_request_parameters, run_context)
                return stack, await stack.enter_async_context(stream)
            except BaseException:
                await stack.aclose()
                raise

        # Only opening the stream is retried: once events flow, an error ends the run.
        stack, response = await self._attempts(open_stream)
        async with stack:
            yield response
