"""A failed turn is one line the user can act on."""

from pathlib import Path

import pytest
from pydantic_ai.exceptions import ModelHTTPError, UnexpectedModelBehavior, UsageLimitExceeded

from decode.agent.factory import build_agent
from decode.agent.failures import LoopUnavailable, describe_error, describe_failure
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.models.script import ScriptExhaustedError
from decode.processes.local import LocalExecutor


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (LoopUnavailable("GEMINI_API_KEY is not set"), "GEMINI_API_KEY is not set"),
        (
            ScriptExhaustedError("script model: t.json has no response left"),
            "script model: t.json has no response left",
        ),
        (UsageLimitExceeded("limit"), "stopped at the request ceiling (7 per turn); raise it with --max-requests"),
        (ModelHTTPError(503, "gemini-x", body="x" * 900), "model request failed: HTTP 503 from gemini-x"),
        (UnexpectedModelBehavior("bad JSON"), "the model's response could not be used: bad JSON"),
        (KeyError("oops"), "the turn failed: KeyError: 'oops'"),
    ],
)
def test_each_failure_has_its_line(tmp_path: Path, error: Exception, message: str) -> None:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    loop = AgentLoop(build_agent("test"), AgentDeps(LocalExecutor(tmp_path), settings, harness_home=tmp_path))
    loop.max_requests = 7
    assert describe_failure(error, loop).line == message


def test_describe_error_is_one_short_line() -> None:
    text = describe_error(RuntimeError("line one\nline two " + "y" * 500))
    assert "\n" not in text
    assert len(text) <= 300
    assert text.startswith("line one line two")
    assert text.endswith("…")


def test_an_http_error_carries_the_providers_own_reason_in_one_line() -> None:
    body = {"error": {"message": "This model's maximum context length\nis 8192 tokens", "code": "context_length"}}
    error = ModelHTTPError(400, "gpt-x", body=body)
    assert describe_error(error) == "HTTP 400 from gpt-x: This model's maximum context length is 8192 tokens"
    failure = describe_failure(error, None)
    assert (
        failure.line == "model request failed: HTTP 400 from gpt-x: This model's maximum context length is 8192 tokens"
    )
    assert (failure.cause, failure.at_ceiling) == ("a model request failed", False)


def test_a_long_provider_reason_is_cut() -> None:
    text = describe_error(ModelHTTPError(500, "m", body={"message": "z" * 900}))
    assert len(text) == len("HTTP 500 from m: ") + 200
    assert text.endswith("…")


def test_the_request_ceiling_is_marked_so_decode_run_can_exit_3() -> None:
    failure = describe_failure(UsageLimitExceeded("limit"), None)
    assert failure.at_ceiling
    assert failure.line == "stopped at the request ceiling; raise it with --max-requests"
