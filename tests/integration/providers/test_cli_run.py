"""`decode run` as a user runs it, a real subprocess talking to a fake provider over real HTTP.

The answer alone goes to stdout; failures end with one `decode: error: …` line on stderr and the
documented exit code: 1 when the model fails (after retrying what is worth retrying), 2 when a key
is missing, before any request leaves the machine.
"""

import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.integration.providers.conftest import SECRET
from tests.integration.providers.fake_servers import Call, Cut, Fail, GeminiServer, Hang, Malformed, OpenAIServer, Turn

pytestmark = pytest.mark.integration

RunDecode = Callable[..., subprocess.CompletedProcess[str]]


def openai_env(server: OpenAIServer, **extra: str) -> dict[str, str]:
    return {"OPENAI_BASE_URL": f"{server.url}/v1", "OPENAI_API_KEY": SECRET, "DECODE_RETRY_BASE_DELAY": "0", **extra}


def error_line(result: subprocess.CompletedProcess[str]) -> str:
    """The one error line, after checking nothing crashed (a run that started is saved after it)."""
    lines = result.stderr.splitlines()
    assert "Traceback" not in result.stderr
    errors = [line for line in lines if line.startswith("decode: error:")]
    assert len(errors) == 1, result.stderr
    if result.returncode == 1:  # the failed turn is kept, to resume
        assert lines[-1].startswith("decode: session "), result.stderr
    return errors[0]


def test_the_answer_alone_goes_to_stdout(run_decode: RunDecode, openai_server: OpenAIServer) -> None:
    openai_server.plan(Turn(text="Hello from a real HTTP server."))

    result = run_decode("run", "--model", "openai-compatible:local-coder", "Say hello", env=openai_env(openai_server))

    assert result.returncode == 0, result.stderr
    assert result.stdout == "Hello from a real HTTP server.\n"
    assert SECRET not in result.stdout + result.stderr
    [request] = openai_server.requests
    assert request.json()["model"] == "local-coder"
    assert request.headers["authorization"] == f"Bearer {SECRET}"


def test_a_retried_rate_limit_still_answers_and_debug_logs_keep_the_key_secret(
    run_decode: RunDecode, openai_server: OpenAIServer
) -> None:
    openai_server.plan(Fail(429, retry_after="0"), Turn(text="Made it."))

    env = openai_env(openai_server, DECODE_LOG_LEVEL="DEBUG")
    result = run_decode("run", "--model", "openai-compatible:local-coder", "hi", env=env)

    assert result.returncode == 0, result.stderr
    assert result.stdout == "Made it.\n"
    assert (
        "decode: model error (HTTP 429 from local-coder: injected failure); retry 1 in 0.0s"
        in result.stderr.splitlines()
    )
    assert "decode.models.retry: model request failed" in result.stderr
    assert SECRET not in result.stderr
    assert len(openai_server.requests) == 2


def test_a_model_failing_after_retries_exits_1(run_decode: RunDecode, openai_server: OpenAIServer) -> None:
    openai_server.plan(Fail(503), Fail(503), Fail(503))

    env = openai_env(openai_server, DECODE_MAX_RETRIES="2")
    result = run_decode("run", "--model", "openai-compatible:local-coder", "hi", env=env)

    assert result.returncode == 1
    assert result.stdout == ""
    assert error_line(result) == "decode: error: model request failed: HTTP 503 from local-coder: injected failure"
    assert sum("retry" in line for line in result.stderr.splitlines()) == 2
    assert len(openai_server.requests) == 3
    assert SECRET not in result.stderr


def test_a_rejected_key_exits_1_without_retrying(run_decode: RunDecode, openai_server: OpenAIServer) -> None:
    openai_server.plan(Fail(401, message="invalid api key"), Turn(text="never reached"))

    result = run_decode("run", "--model", "openai-compatible:local-coder", "hi", env=openai_env(openai_server))

    assert result.returncode == 1
    assert error_line(result) == "decode: error: model request failed: HTTP 401 from local-coder: invalid api key"
    assert len(openai_server.requests) == 1


def test_timeouts_exit_1_with_a_clear_message(run_decode: RunDecode, gemini_server: GeminiServer) -> None:
    gemini_server.plan(Hang(), Hang())
    env = {
        "GEMINI_BASE_URL": gemini_server.url,
        "GEMINI_API_KEY": SECRET,
        "DECODE_REQUEST_TIMEOUT": "0.5",
        "DECODE_MAX_RETRIES": "1",
        "DECODE_RETRY_BASE_DELAY": "0",
    }

    result = run_decode("run", "--model", "google-gla:gemini-test", "hi", env=env)

    assert result.returncode == 1
    assert error_line(result).startswith("decode: error: model request failed: request timed out")
    assert len(gemini_server.requests) == 2


def test_an_unreadable_response_exits_1_with_a_clear_message(
    run_decode: RunDecode, openai_server: OpenAIServer
) -> None:
    openai_server.plan(Malformed("{this is not json"))

    result = run_decode("run", "--model", "openai-compatible:local-coder", "hi", env=openai_env(openai_server))

    assert result.returncode == 1
    line = error_line(result)
    assert line.startswith("decode: error: ")
    assert "unreadable response from local-coder (JSONDecodeError" in line
    assert len(openai_server.requests) == 1


@pytest.mark.parametrize(
    ("model", "url_variable", "key_variable"),
    [
        ("openrouter:vendor/some-model", "OPENROUTER_BASE_URL", "OPENROUTER_API_KEY"),
        ("google-gla:gemini-test", "GEMINI_BASE_URL", "GEMINI_API_KEY"),
    ],
)
def test_a_missing_key_exits_2_before_any_request(
    run_decode: RunDecode,
    project: Path,
    openai_server: OpenAIServer,
    gemini_server: GeminiServer,
    model: str,
    url_variable: str,
    key_variable: str,
) -> None:
    server = gemini_server if model.startswith("google-gla:") else openai_server
    server.plan(Turn(text="never reached"))

    result = run_decode("run", "--model", model, "hi", env={url_variable: server.url})

    assert result.returncode == 2
    assert result.stdout == ""
    line = error_line(result)
    assert line.startswith(f"decode: error: {key_variable} is not set")
    assert str(project.resolve() / ".env") in line
    assert server.requests == []


def dropping_server(model: str, openai: OpenAIServer, gemini: GeminiServer, cut: Cut) -> tuple[Any, dict[str, str]]:
    """The server for `model` with `cut` planned (then an answer a retry would get), and its environment."""
    if model.startswith("google-gla:"):
        gemini.plan(cut, Turn(text="never reached"))
        return gemini, {"GEMINI_BASE_URL": gemini.url, "GEMINI_API_KEY": SECRET, "DECODE_RETRY_BASE_DELAY": "0"}
    openai.plan(cut, Turn(text="never reached"))
    return openai, openai_env(openai)


@pytest.mark.parametrize("model", ["openai-compatible:local-coder", "google-gla:gemini-test"])
def test_a_stream_dropped_midway_says_the_connection_dropped(
    run_decode: RunDecode, openai_server: OpenAIServer, gemini_server: GeminiServer, model: str
) -> None:
    cut = Cut(Turn(text="The answer is forty two"), events=3)
    server, env = dropping_server(model, openai_server, gemini_server, cut)

    result = run_decode("run", "--model", model, "hi", env=env)

    assert result.returncode == 1
    assert error_line(result).startswith("decode: error: model request failed: the connection dropped mid-answer")
    assert len(server.requests) == 1


@pytest.mark.parametrize(
    ("model", "events"),
    [("openai-compatible:local-coder", 1), ("google-gla:gemini-test", 0)],  # OpenAI's first event: the role alone
)
def test_a_stream_closed_before_any_answer_says_the_connection_dropped(
    run_decode: RunDecode, openai_server: OpenAIServer, gemini_server: GeminiServer, model: str, events: int
) -> None:
    # Before: pydantic-ai asked again for the "empty answer" ("Exceeded maximum output retries" at last).
    cut = Cut(Turn(text="The answer is forty two"), events=events, clean=True)
    server, env = dropping_server(model, openai_server, gemini_server, cut)

    result = run_decode("run", "--model", model, "hi", env={**env, "DECODE_MAX_RETRIES": "0"})

    assert result.returncode == 1
    line = error_line(result)
    assert line == "decode: error: model request failed: the connection dropped: the stream ended before any answer"
    assert len(server.requests) == 1


def test_an_unknown_models_window_is_warned_about_once_and_not_under_quiet(
    run_decode: RunDecode, openai_server: OpenAIServer
) -> None:
    openai_server.plan(Turn(calls=(Call("glob", {"pattern": "*"}),)), Turn(text="Nothing here."), Turn(text="Quiet."))
    env = openai_env(openai_server)

    loud = run_decode("run", "--model", "openai-compatible:mystery-model", "look around", env=env)
    quiet = run_decode("run", "-q", "--model", "openai-compatible:mystery-model", "hi", env=env)

    assert (loud.returncode, quiet.returncode) == (0, 0), loud.stderr + quiet.stderr
    assert loud.stderr.count("no context window known for openai-compatible:mystery-model") == 1  # two requests
    assert "context window" not in quiet.stderr
    assert quiet.stdout == "Quiet.\n"
