import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import httpx2
import pytest
from pydantic_ai import Agent
from pydantic_ai.exceptions import ModelAPIError, ModelHTTPError, UnexpectedModelBehavior
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from decode.models.retry import MAX_RETRY_AFTER_S, RetryingModel, as_model_error, is_transient, retry_delay


def http_error(status: int, **headers: str) -> ModelHTTPError:
    return ModelHTTPError(status, "flaky-model", body={"error": "injected"}, headers=headers)


class Flaky:
    """A model's behaviour: raise `error` on the first `failures` requests, then answer "fine"."""

    def __init__(self, failures: int, error: Exception) -> None:
        self.failures = failures
        self.error = error
        self.calls = 0

    def _maybe_fail(self) -> None:
        self.calls += 1
        if self.calls <= self.failures:
            raise self.error

    def respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self._maybe_fail()
        return ModelResponse(parts=[TextPart("fine")])

    async def stream(self, messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        self._maybe_fail()  # before the first chunk: as a provider's error status arrives
        yield "fi"
        yield "ne"


class Retries:
    """An `on_retry` callback that remembers (attempt, delay) of each retry."""

    def __init__(self) -> None:
        self.seen: list[tuple[int, float]] = []

    def __call__(self, error: BaseException, attempt: int, delay: float) -> None:
        self.seen.append((attempt, delay))


def run(model: RetryingModel, *, streamed: bool) -> str:
    agent = Agent(model)

    async def go() -> str:
        if streamed:
            async with agent.run_stream("hi") as result:
                return await result.get_output()
        return (await agent.run("hi")).output

    return asyncio.run(go())


def flaky_model(flaky: Flaky, *, max_retries: int = 3, on_retry: Retries | None = None) -> RetryingModel:
    wrapped = FunctionModel(flaky.respond, stream_function=flaky.stream, model_name="flaky-model")
    return RetryingModel(wrapped, max_retries=max_retries, base_delay=0.001, on_retry=on_retry)


# --- which errors are worth another try -------------------------------------------------------


@pytest.mark.parametrize("status", [408, 429, 500, 502, 503, 504])
def test_rate_limits_server_errors_and_timeouts_are_transient(status: int) -> None:
    assert is_transient(http_error(status))


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_client_errors_are_not_transient(status: int) -> None:
    assert not is_transient(http_error(status))


@pytest.mark.parametrize(
    "error",
    [
        ModelAPIError("m", "Connection error."),
        httpx2.ReadTimeout("slow"),
        httpx2.ConnectError("refused"),
        httpx2.RemoteProtocolError("peer closed connection"),
        TimeoutError(),
    ],
    ids=["model-api-error", "read-timeout", "connect-error", "dropped", "timeout-error"],
)
def test_connection_failures_are_transient(error: Exception) -> None:
    assert is_transient(error)


@pytest.mark.parametrize(
    "error", [UnexpectedModelBehavior("bad"), ValueError("bad json"), KeyError("choices")], ids=repr
)
def test_unreadable_answers_are_not_transient(error: Exception) -> None:
    assert not is_transient(error)


# --- how long to wait -----------------------------------------------------------------------


def test_the_delay_doubles_from_the_base() -> None:
    error = http_error(503)
    assert [retry_delay(error, attempt, 0.5) for attempt in (1, 2, 3, 4)] == [0.5, 1.0, 2.0, 4.0]


def test_retry_after_in_seconds_wins() -> None:
    assert retry_delay(http_error(429, **{"Retry-After": "7"}), 1, 0.5) == 7.0
    assert retry_delay(http_error(429, **{"retry-after": "0.25"}), 3, 0.5) == 0.25


def test_retry_after_is_capped_and_never_negative() -> None:
    assert retry_delay(http_error(429, **{"retry-after": "3600"}), 1, 0.5) == MAX_RETRY_AFTER_S
    assert retry_delay(http_error(429, **{"retry-after": "-5"}), 1, 0.5) == 0.0


def test_retry_after_as_an_http_date() -> None:
    soon = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    past = format_datetime(datetime.now(UTC) - timedelta(hours=1), usegmt=True)

    assert 0 < retry_delay(http_error(503, **{"retry-after": soon}), 1, 0.5) <= 30
    assert retry_delay(http_error(503, **{"retry-after": past}), 1, 0.5) == 0.0


def test_an_unreadable_retry_after_falls_back_to_doubling() -> None:
    assert retry_delay(http_error(429, **{"retry-after": "soon-ish"}), 2, 0.5) == 1.0


def test_errors_without_headers_use_doubling() -> None:
    assert retry_delay(httpx2.ReadTimeout("slow"), 3, 0.1) == pytest.approx(0.4)


# --- one vocabulary for what escapes ---------------------------------------------------------


def test_pydantic_ai_errors_pass_unchanged() -> None:
    for error in (http_error(401), ModelAPIError("m", "Connection error."), UnexpectedModelBehavior("odd")):
        assert as_model_error(error, "m") is error


def test_a_raw_timeout_becomes_a_model_api_error() -> None:
    error = as_model_error(httpx2.ReadTimeout("slow"), "gemini-x")

    assert type(error) is ModelAPIError
    assert error.model_name == "gemini-x"
    assert error.message == "request timed out (ReadTimeout: slow)"


def test_a_raw_connection_failure_becomes_a_model_api_error() -> None:
    error = as_model_error(httpx2.ConnectError("refused"), "m")

    assert type(error) is ModelAPIError
    assert error.message == "request failed (ConnectError: refused)"


def test_an_sdk_parse_failure_becomes_unexpected_model_behavior() -> None:
    error = as_model_error(AttributeError("'str' object has no attribute 'finish_reason'"), "local-coder")

    assert isinstance(error, UnexpectedModelBehavior)
    assert error.message == (
        "unreadable response from local-coder (AttributeError: 'str' object has no attribute 'finish_reason')"
    )


# --- RetryingModel --------------------------------------------------------------------------


@pytest.mark.parametrize("streamed", [True, False], ids=["streamed", "not-streamed"])
def test_transient_failures_are_retried_until_an_answer(streamed: bool) -> None:
    flaky, retries = Flaky(failures=2, error=http_error(503)), Retries()

    output = run(flaky_model(flaky, on_retry=retries), streamed=streamed)

    assert output == "fine"
    assert flaky.calls == 3
    assert retries.seen == [(1, 0.001), (2, 0.002)]


@pytest.mark.parametrize("streamed", [True, False], ids=["streamed", "not-streamed"])
def test_the_last_error_escapes_when_retries_run_out(streamed: bool) -> None:
    flaky, retries = Flaky(failures=10, error=http_error(429)), Retries()

    with pytest.raises(ModelHTTPError) as caught:
        run(flaky_model(flaky, max_retries=2, on_retry=retries), streamed=streamed)

    assert caught.value.status_code == 429
    assert flaky.calls == 3
    assert len(retries.seen) == 2


@pytest.mark.parametrize("streamed", [True, False], ids=["streamed", "not-streamed"])
def test_client_errors_fail_at_once(streamed: bool) -> None:
    flaky, retries = Flaky(failures=1, error=http_error(401)), Retries()

    with pytest.raises(ModelHTTPError):
        run(flaky_model(flaky, on_retry=retries), streamed=streamed)

    assert flaky.calls == 1
    assert retries.seen == []


def test_a_raw_transport_error_is_retried_then_reported_as_a_model_api_error() -> None:
    flaky = Flaky(failures=10, error=httpx2.ReadTimeout("slow"))

    with pytest.raises(ModelAPIError) as caught:
        run(flaky_model(flaky, max_retries=1), streamed=True)

    assert caught.value.message == "request timed out (ReadTimeout: slow)"
    assert isinstance(caught.value.__cause__, httpx2.ReadTimeout)
    assert flaky.calls == 2


def test_an_unreadable_answer_is_reported_once_not_retried() -> None:
    flaky = Flaky(failures=1, error=ValueError("Expecting value: line 1 column 1"))

    with pytest.raises(UnexpectedModelBehavior, match=r"unreadable response from flaky-model \(ValueError"):
        run(flaky_model(flaky), streamed=True)

    assert flaky.calls == 1


def test_a_failure_after_the_first_event_is_not_retried() -> None:
    calls = 0

    async def half_then_fail(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        nonlocal calls
        calls += 1
        yield "half an answer"
        raise httpx2.RemoteProtocolError("peer closed connection")

    model = RetryingModel(FunctionModel(stream_function=half_then_fail, model_name="m"), base_delay=0)

    with pytest.raises(ModelAPIError, match=r"^the connection dropped mid-answer: peer closed connection"):
        run(model, streamed=True)

    assert calls == 1  # a retry would repeat what the agent already showed


def test_the_wrapped_model_name_shows_through() -> None:
    assert flaky_model(Flaky(0, ValueError())).model_name == "flaky-model"
