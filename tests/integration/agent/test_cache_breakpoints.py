"""Cache breakpoints: an Anthropic model through OpenRouter gets them where the next request repeats.

`decode run` against a loopback server speaking OpenRouter's (OpenAI chat-completions) wire format.
For `openrouter:anthropic/…` each request marks the tool definitions, the instructions, the end of
the history just before the Turn Facts and where the previous request's history ended (never the
facts, at most Anthropic's 4 marks); a model that caches by itself gets no mark at all (ADR-0101).
"""

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from decode.agent.facts import HEADER
from tests.integration.conftest import RunDecode
from tests.integration.providers.fake_servers import Call, OpenAIServer, Turn

pytestmark = pytest.mark.integration
MARK = {"type": "ephemeral", "ttl": "5m"}


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    served = OpenAIServer()
    yield served
    served.close()


def run_three_requests(project: Path, decode_cmd: RunDecode, server: OpenAIServer, model: str) -> list[dict[str, Any]]:
    """A turn that reads two files, then answers: the request bodies the server received."""
    (project / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    (project / "test_calc.py").write_text("from calc import add\n")
    read = [Turn(calls=(Call("read", {"path": path}),)) for path in ("calc.py", "test_calc.py")]
    server.plan(*read, Turn(text="It adds."))
    env = {
        "OPENROUTER_BASE_URL": f"{server.url}/v1",
        "OPENROUTER_API_KEY": "sk-or-test",
        "OPENAI_BASE_URL": f"{server.url}/v1",
        "OPENAI_API_KEY": "sk-test-local",
    }
    result = decode_cmd(
        "run", "--model", model, "--permission-mode", "bypass", "what does add do?", cwd=project, env=env
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "It adds.\n"
    bodies = [request.json() for request in server.requests]
    assert len(bodies) == 3
    return bodies


def marked(parts: Any) -> bool:
    """Whether a message's content (a string or a list of parts) or a tool carries a `cache_control`."""
    return isinstance(parts, list) and any("cache_control" in part for part in parts)


def is_facts(message: dict[str, Any]) -> bool:
    content = message["content"]
    text = content if isinstance(content, str) else "".join(part.get("text", "") for part in content)
    return message["role"] == "user" and text.startswith(HEADER)


def test_an_anthropic_model_marks_the_prefix_and_the_history_before_the_facts(
    project: Path, decode_cmd: RunDecode, server: OpenAIServer
) -> None:
    bodies = run_three_requests(project, decode_cmd, server, "openrouter:anthropic/claude-sonnet-4.5")
    # Each request marks the end of its history (before the facts) and where the previous one's ended.
    history_marks = [[1], [1, 3], [3, 5]]  # the prompt; then the prompt and a tool result; then two results
    for body, marks in zip(bodies, history_marks, strict=True):
        messages, tools = body["messages"], body["tools"]
        # (a) the tool definitions (the last one) and the instructions (the one system message).
        assert [("cache_control" in tool) for tool in tools] == [False] * (len(tools) - 1) + [True]
        assert messages[0]["role"] == "system"
        assert marked(messages[0]["content"])
        # (b) the history ends marked, just before the facts, which are last and unmarked.
        assert is_facts(messages[-1])
        assert not marked(messages[-1]["content"])
        assert marks[-1] == len(messages) - 2
        assert [i for i, m in enumerate(messages) if i > 0 and marked(m["content"])] == marks
        assert all(messages[i]["content"][-1]["cache_control"] == MARK for i in marks)
        # Within Anthropic's four.
        assert sum(marked(m["content"]) for m in messages) + sum("cache_control" in t for t in tools) <= 4
    assert [m["role"] for m in bodies[2]["messages"]] == [
        "system",
        "user",
        "assistant",
        "tool",
        "assistant",
        "tool",
        "user",
    ]
    # The third request no longer marks the prompt: it is sent as it was written.
    assert bodies[2]["messages"][1] == {"role": "user", "content": "what does add do?"}


@pytest.mark.parametrize("model", ["openai-compatible:local-coder", "openrouter:qwen/qwen3-coder"])
def test_a_model_that_caches_by_itself_gets_no_marks(
    project: Path, decode_cmd: RunDecode, server: OpenAIServer, model: str
) -> None:
    bodies = run_three_requests(project, decode_cmd, server, model)
    for body in bodies:
        assert "cache_control" not in json.dumps(body)
        assert not any(key.startswith("openrouter_cache") for key in body)
        assert is_facts(body["messages"][-1])
