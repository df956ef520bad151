"""`decode run` against a provider imports that provider's SDK and no other, and no MCP client stack.

Every module the real command imports is listed by Python itself (`PYTHONPROFILEIMPORTTIME`, one
line per import on stderr), for a run that talks to an OpenAI-compatible server on 127.0.0.1, to a
Gemini one and to an Anthropic one: each SDK is seconds of imports, and the MCP client stack more (ADR-0102).
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.providers.fake_servers import FakeProvider, GeminiServer, OpenAIServer, Turn
from tests.integration.providers.wire_servers import AnthropicServer

pytestmark = pytest.mark.integration

MCP_STACK = {"mcp", "mcp_types", "fastmcp"}


def _imported_modules(project: Path, model: str, env: dict[str, str]) -> list[str]:
    """The modules `decode run --model MODEL "hi"` imported, from start to exit."""
    done = subprocess.run(
        [sys.executable, "-m", "decode", "run", "--model", model, "hi"],
        cwd=project, env={**os.environ, **env, "PYTHONPROFILEIMPORTTIME": "1"},
        capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    return [line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")]


def _imported(project: Path, model: str, env: dict[str, str]) -> set[str]:
    """The top-level packages `decode run --model MODEL "hi"` imported, from start to exit."""
    return {name.split(".")[0] for name in _imported_modules(project, model, env)}


@pytest.mark.parametrize("provider", ["openai-compatible", "google-gla", "anthropic"])
def test_a_run_imports_its_providers_sdk_only_and_no_mcp_client(provider: str, tmp_path: Path) -> None:
    server: FakeProvider
    if provider == "openai-compatible":
        server = OpenAIServer()
        env = {"OPENAI_BASE_URL": f"{server.url}/v1", "OPENAI_API_KEY": "x"}
        used, others = "openai", {"google", "anthropic"}
    elif provider == "google-gla":
        server = GeminiServer()
        env = {"GEMINI_API_KEY": "x", "GEMINI_BASE_URL": server.url}
        used, others = "google", {"openai", "anthropic"}
    else:
        server = AnthropicServer()
        env = {"ANTHROPIC_API_KEY": "x", "ANTHROPIC_BASE_URL": server.url}
        used, others = "anthropic", {"openai", "google", "boto3"}
    server.plan(Turn(text="Hello."))
    try:
        imported = _imported(tmp_path, f"{provider}:bench", env)
    finally:
        server.close()

    assert len(server.requests) == 1  # the run did reach the model
    assert used in imported
    assert not imported & others, sorted(imported & others)
    assert not imported & MCP_STACK, sorted(imported & MCP_STACK)


def test_an_openai_compatible_run_imports_the_types_of_chat_completions_not_of_every_api(tmp_path: Path) -> None:
    # `openai.types` re-exports the models of every API of the SDK; decode calls chat completions (ADR-0114).
    server = OpenAIServer()
    server.plan(Turn(text="Hello."))
    try:
        modules = _imported_modules(
            tmp_path, "openai-compatible:bench", {"OPENAI_BASE_URL": f"{server.url}/v1", "OPENAI_API_KEY": "x"}
        )
    finally:
        server.close()

    assert len(server.requests) == 1
    assert "openai.types.chat.chat_completion" in modules
    unused = ("evals", "graders", "fine_tuning", "realtime", "beta", "vector_stores", "webhooks", "audio")
    assert not [name for name in modules if name.split(".")[:3] in (["openai", "types", api] for api in unused)]
