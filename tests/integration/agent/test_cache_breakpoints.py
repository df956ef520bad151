"""Cache breakpoints: an Anthropic model through OpenRouter gets them where the next request repeats.

`decode run` against a loopback server speaking OpenRouter's (OpenAI chat-completions) wire format.
For `openrouter:anthropic/…` each request marks the tool definitions, the instructions and the end of
the history just before the Turn Facts (never the facts, at most Anthropic's 4 marks); a model that
caches by itself gets no mark at all (ADR-0101).
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


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    served = OpenAIServer()
    yield served
    served.close()


def run_two_requests(project: Path, decode_cmd: RunDecode, server: OpenAIServer, model: str) -> list[dict[str, Any]]:
    """A turn that reads a file, then answers: the request bodies the server received."""
    (project / "calc.py").write_text("def add(a, b):\n    return a + b\n")
    server.plan(Turn(calls=(Call("read", {"path": "calc.py"}),)), Turn(text="It adds."))
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
    assert len(bodies) == 2
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
    bodies = run_two_requests(project, decode_cmd, server, "openrouter:anthropic/claude-sonnet-4.5")
    for body, before_facts_role in zip(bodies, ("user", "tool"), strict=True):
        messages, tools = body["messages"], body["tools"]
        # (a) the tool definitions (the last one) and the instructions (the system message).
        assert [("cache_control" in tool) for tool in tools] == [False] * (len(tools) - 1) + [True]
        assert messages[0]["role"] == "system"
        assert marked(messages[0]["content"])
        # (b) the history ends marked, just before the facts, which are last and unmarked.
        assert is_facts(messages[-1])
        assert not marked(messages[-1]["content"])
        assert messages[-2]["role"] == before_facts_role
        assert messages[-2]["content"][-1]["cache_control"] == {"type": "ephemeral", "ttl": "5m"}
        # Nothing else: three marks, within Anthropic's four.
        assert sum(marked(m["content"]) for m in messages) + sum("cache_control" in t for t in tools) == 3
    # The second request moved the history mark to its own end: the user's prompt is plain again.
    assert bodies[1]["messages"][1] == {"role": "user", "content": "what does add do?"}


@pytest.mark.parametrize("model", ["openai-compatible:local-coder", "openrouter:qwen/qwen3-coder"])
def test_a_model_that_caches_by_itself_gets_no_marks(
    project: Path, decode_cmd: RunDecode, server: OpenAIServer, model: str
) -> None:
    bodies = run_two_requests(project, decode_cmd, server, model)
    for body in bodies:
        assert "cache_control" not in json.dumps(body)
        assert not any(key.startswith("openrouter_cache") for key in body)
        assert is_facts(body["messages"][-1])
