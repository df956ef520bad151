"""Fixtures for the provider tests: fake provider servers on 127.0.0.1 and settings aimed at them.

`provider` is parametrised over every network model string decode knows, so each behaviour is
checked once per provider: three of them speak OpenAI's chat completions, one Gemini's, one
Anthropic's Messages API and one OpenAI's Responses API (`openai:gpt-5`, a reasoning model).
"""

import asyncio
import os
import subprocess
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai.models import Model

from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.entities.events import AgentEvent
from decode.entities.tools import ToolSpec
from decode.models.gateway import resolve_model
from decode.models.retry import OnRetry
from decode.processes.local import LocalExecutor
from tests.integration.forkserver import as_text, run_forked
from tests.integration.providers.fake_servers import FakeProvider, GeminiServer, OpenAIServer
from tests.integration.providers.wire_servers import AnthropicServer, ResponsesServer

SECRET = "sk-test-0123456789-do-not-leak"
"""The key every fake provider is given; tests check where it travels (and where it must not)."""

FAST: dict[str, Any] = {"max_retries": 2, "retry_base_delay": 0.01, "request_timeout": 10.0}
"""Quick back-off for tests; a generous timeout so a busy machine never times out by accident."""


@dataclass
class Provider:
    """A fake provider server and the settings that point a decode model string at it."""

    spec: str
    server: FakeProvider
    settings: Settings
    auth_header: str
    auth_value: str

    def model(self, on_retry: OnRetry | None = None, **overrides: Any) -> Model:
        """The gateway's model for `spec`, with any setting overridden (e.g. `request_timeout=0.5`)."""
        return resolve_model(self.spec, self.settings.model_copy(update=overrides), on_retry=on_retry)

    def run_turn(
        self, prompt: str, *, tools: Sequence[ToolSpec] = (), on_retry: OnRetry | None = None, **overrides: Any
    ) -> list[AgentEvent]:
        """One turn of the real Agent Loop against the fake server; every event it yielded."""
        loop = AgentLoop(
            build_agent(self.model(on_retry, **overrides), tools=tools),
            AgentDeps(LocalExecutor(Path.cwd()), self.settings, harness_home=Path.cwd()),
        )

        async def turn() -> list[AgentEvent]:
            return [event async for event in loop.run_turn(prompt)]

        return asyncio.run(turn())


def _settings(**values: Any) -> Settings:
    return Settings(_env_file=None, **{**FAST, **values})  # type: ignore[call-arg]


@pytest.fixture
def openai_server() -> Iterator[OpenAIServer]:
    server = OpenAIServer()
    yield server
    server.close()


@pytest.fixture
def gemini_server() -> Iterator[GeminiServer]:
    server = GeminiServer()
    yield server
    server.close()


PROVIDERS: dict[str, tuple[str, Callable[[str], dict[str, Any]]]] = {
    # name: (model string, settings aiming it at a server's URL)
    "openai-compatible": (
        "openai-compatible:local-coder",
        lambda url: {"openai_base_url": f"{url}/v1", "openai_api_key": SECRET},
    ),
    "openrouter": (
        "openrouter:vendor/some-model",
        lambda url: {"openrouter_base_url": f"{url}/api/v1", "openrouter_api_key": SECRET},
    ),
    "modal": ("modal:served-model", lambda url: {"modal_llm_url": f"{url}/v1", "modal_llm_token": SECRET}),
    "google-gla": ("google-gla:gemini-test", lambda url: {"gemini_base_url": url, "gemini_api_key": SECRET}),
    "anthropic": (
        "anthropic:claude-sonnet-5",
        lambda url: {"anthropic_base_url": url, "anthropic_api_key": SECRET},
    ),
    "openai": ("openai:gpt-5", lambda url: {"openai_base_url": f"{url}/v1", "openai_api_key": SECRET}),
}

SERVERS: dict[str, tuple[type[FakeProvider], tuple[str, str]]] = {
    # name: (its wire format's server, the header that carries the key)
    "google-gla": (GeminiServer, ("x-goog-api-key", SECRET)),
    "anthropic": (AnthropicServer, ("x-api-key", SECRET)),
    "openai": (ResponsesServer, ("authorization", f"Bearer {SECRET}")),
}


@pytest.fixture(params=list(PROVIDERS))
def provider(request: pytest.FixtureRequest) -> Iterator[Provider]:
    """Each network provider in turn, against its own fresh fake server."""
    spec, aim = PROVIDERS[request.param]
    kind, auth = SERVERS.get(request.param, (OpenAIServer, ("authorization", f"Bearer {SECRET}")))
    server = kind()
    yield Provider(spec, server, _settings(**aim(server.url)), *auth)
    server.close()


@pytest.fixture
def run_decode(project: Path) -> Callable[..., subprocess.CompletedProcess[str]]:
    """Run the real `decode` command in the empty project directory, with extra environment variables."""
    decode = Path(sys.executable).with_name("decode")

    def run(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
        # The suite's autouse fixture already removed the developer's keys from os.environ.
        # A process of its own, forked from one that imported the CLI already (tests/integration/forkserver.py).
        return as_text(run_forked([str(decode), *args], cwd=project, env={**os.environ, **env}))

    return run
