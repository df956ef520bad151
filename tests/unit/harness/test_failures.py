"""A failed turn is one line the user can act on."""

from pathlib import Path

import pytest
from pydantic_ai.exceptions import ModelHTTPError, UnexpectedModelBehavior, UsageLimitExceeded

from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.harness.failures import LoopUnavailable, describe_error, failure_message
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
        (UsageLimitExceeded("limit"), "stopped at the request ceiling (7 per turn; raise it with --max-requests)"),
        (ModelHTTPError(503, "gemini-x", body="x" * 900), "model request failed: HTTP 503 from gemini-x"),
        (UnexpectedModelBehavior("bad JSON"), "the model's response could not be used: bad JSON"),
        (KeyError("oops"), "the turn failed: KeyError: 'oops'"),
    ],
)
def test_each_failure_has_its_line(tmp_path: Path, error: Exception, message: str) -> None:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    loop = AgentLoop(build_agent("test"), AgentDeps(LocalExecutor(tmp_path), settings, harness_home=tmp_path))
    loop.max_requests = 7
    assert failure_message(error, loop) == message


def test_describe_error_is_one_short_line() -> None:
    text = describe_error(RuntimeError("line one\nline two " + "y" * 500))
    assert "\n" not in text
    assert len(text) <= 300
    assert text.startswith("line one line two")
    assert text.endswith("…")
