"""The Recording Seam wraps the agent only when recording is configured (decode/recording/seam.py)."""

import os
import uuid
from pathlib import Path

import pytest
from pydantic_ai import Agent
from pydantic_ai.models.test import TestModel

from decode.agent.steps.executor import command_environment_for
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.recording.seam import recorded, recording_configured

AGENT_ID = uuid.UUID("01a233f0-1860-7029-9c7c-04b5a39d0474")


@pytest.fixture(autouse=True)
def no_kitaru_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("KITARU_"):
            monkeypatch.delenv(name)


def agent() -> "Agent[AgentDeps, str]":
    return Agent(TestModel(), deps_type=AgentDeps)


@pytest.mark.parametrize(
    "values",
    [{}, {"kitaru_api_url": "http://127.0.0.1:1"}, {"kitaru_agent_id": AGENT_ID}],
)
def test_unconfigured_the_agent_comes_back_unchanged(values: dict[str, object]) -> None:
    plain = agent()
    settings = Settings(_env_file=None, **values)  # type: ignore[call-arg]
    assert not recording_configured(settings)
    assert recorded(plain, settings, "s1") is plain


def test_configured_the_agent_is_recorded_under_the_session_id(monkeypatch: pytest.MonkeyPatch) -> None:
    from kitaru_pydantic_ai import KitaruAgent

    from decode.recording.fallback import FallbackAgent

    plain = agent()
    settings = Settings(_env_file=None, kitaru_api_url="http://127.0.0.1:1", kitaru_agent_id=AGENT_ID)  # type: ignore[call-arg]
    wrapped = recorded(plain, settings, "0123abcd")
    assert isinstance(wrapped, FallbackAgent)
    assert wrapped.wrapped is plain
    assert not wrapped.worker
    assert isinstance(wrapped.recorder, KitaruAgent)
    capability = wrapped.recorder._capability  # kitaru-pydantic-ai keeps what it records with here
    assert (capability.session_name, capability.agent_id) == ("0123abcd", AGENT_ID)
    assert os.environ["KITARU_API_URL"] == "http://127.0.0.1:1"  # kitaru's own client reads it


def test_a_worker_run_is_marked_as_one() -> None:
    settings = Settings(
        _env_file=None,
        kitaru_api_url="http://127.0.0.1:1",
        kitaru_agent_id=AGENT_ID,
        kitaru_task_id="0123abcd-0000-4000-8000-000000000001",
    )  # type: ignore[call-arg]
    wrapped = recorded(agent(), settings, "s")
    assert wrapped.worker is True


@pytest.mark.parametrize(("value", "deadline"), [(None, 15.0), (2.5, 2.5)])
def test_the_recorders_deadline_is_a_setting(value: float | None, deadline: float) -> None:
    settings = Settings(
        _env_file=None, kitaru_api_url="http://127.0.0.1:1", kitaru_agent_id=AGENT_ID, recorder_timeout=value
    )  # type: ignore[call-arg]
    assert recorded(agent(), settings, "s").start_timeout_s == deadline  # type: ignore[attr-defined]


def test_a_projects_dotenv_cannot_point_recording_at_a_server(project: Path) -> None:
    (project / ".env").write_text(f"KITARU_API_URL=http://evil.example\nKITARU_AGENT_ID={AGENT_ID}\n")
    settings = Settings()
    assert settings.kitaru_api_url is None
    assert settings.kitaru_agent_id == AGENT_ID
    assert not recording_configured(settings)


def test_the_kitaru_key_is_a_secret_commands_never_get(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KITARU_API_KEY", "kitaru-secret-key")
    monkeypatch.setenv("KITARU_API_TOKEN", "kitaru-secret-token")
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.kitaru_api_key is not None
    assert "kitaru-secret" not in repr(settings)
    assert "kitaru-secret" not in str(settings.model_dump())
    env = command_environment_for(settings)
    assert "KITARU_API_KEY" not in env
    assert "KITARU_API_TOKEN" not in env
    assert {"KITARU_API_KEY", "KITARU_API_TOKEN"} <= Settings.secret_env_names()


def test_a_key_from_dotenv_reaches_kitaru_but_no_sandbox(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from decode.sandbox.environment import sandbox_environment

    (project / ".env").write_text("KITARU_API_KEY=kitaru-secret-key\n")
    monkeypatch.setenv("KITARU_API_URL", "http://127.0.0.1:1")
    monkeypatch.setenv("KITARU_AGENT_ID", str(AGENT_ID))
    settings = Settings()
    recorded(agent(), settings, "s")
    assert os.environ["KITARU_API_KEY"] == "kitaru-secret-key"  # kitaru's client reads it from here
    assert "kitaru-secret-key" not in sandbox_environment(settings).values()
    assert "kitaru-secret-key" not in command_environment_for(settings).values()


def test_a_workers_task_token_is_not_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KITARU_API_TOKEN", "task-token")
    settings = Settings(_env_file=None, kitaru_api_url="http://127.0.0.1:1", kitaru_agent_id=AGENT_ID)  # type: ignore[call-arg]
    recorded(agent(), settings, "s")
    assert "KITARU_API_KEY" not in os.environ
