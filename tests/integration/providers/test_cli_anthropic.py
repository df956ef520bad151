"""`decode run --model anthropic:…` as a Claude Code user runs it, against a loopback Messages API.

One real `decode` process streams an answer after a tool call (thinking and all), prices it and
saves the session; a second resumes it and sends the whole conversation back, thinking blocks
with their signatures included, as Anthropic requires.
"""

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.integration.providers.conftest import SECRET
from tests.integration.providers.fake_servers import Call, Fail, Turn
from tests.integration.providers.wire_servers import AnthropicServer

pytestmark = pytest.mark.integration

RunDecode = Callable[..., subprocess.CompletedProcess[str]]


def test_a_run_streams_uses_a_tool_prices_and_resumes(run_decode: RunDecode, project: Path) -> None:
    (project / "notes.txt").write_text("one two three\n")
    server = AnthropicServer()
    server.plan(
        Fail(529, message="Overloaded"),
        Turn(thinking="I should read it.", calls=(Call("read", {"path": "notes.txt"}),)),
        Turn(text="notes.txt has three words."),
        Turn(text="Still three."),
    )
    env = {"ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": SECRET, "DECODE_RETRY_BASE_DELAY": "0"}
    try:
        first = run_decode(
            "run", "--model", "anthropic:claude-sonnet-5", "--output-format", "stream-json", "Count the words",
            env=env,
        )  # fmt: skip
        lines = [json.loads(line) for line in first.stdout.splitlines()]
        session = lines[-1]["session_id"]
        second = run_decode("run", "--resume", session, "--output-format", "json", "And now?", env=env)
    finally:
        server.close()

    assert first.returncode == 0, first.stderr
    assert "retry 1" in first.stderr  # the 529 was retried
    [result] = [line for line in lines if line["type"] == "tool_result"]
    assert (result["name"], result["is_error"]) == ("read", False)
    assert "one two three" in result["content"]
    assert lines[-1]["result"] == "notes.txt has three words."
    assert lines[-1]["cost_usd"] > 0  # genai-prices knows claude-sonnet-5
    assert second.returncode == 0, second.stderr
    assert json.loads(second.stdout)["result"] == "Still three."
    resumed = server.requests[-1].json()
    assert resumed["model"] == "claude-sonnet-5"  # the session's model, kept on resume
    [assistant, *_] = [m for m in resumed["messages"] if m["role"] == "assistant"]
    assert assistant["content"][0] == {
        "type": "thinking",
        "thinking": "I should read it.",
        "signature": "fake-signature",
    }
    assert SECRET not in first.stdout + first.stderr + second.stdout + second.stderr


def test_a_missing_anthropic_key_names_the_variable(run_decode: RunDecode, project: Path) -> None:
    result = run_decode("run", "--model", "sonnet", "hi", env={})

    assert result.returncode == 2
    assert result.stderr.startswith("decode: error: ANTHROPIC_API_KEY is not set: anthropic: models need it")
    assert str(project.resolve() / ".env") in result.stderr
