"""Tracing is on only when the user configured it; its key is a secret like the others."""

import logging
import sys

import pytest

from decode.config.settings import Settings
from decode.observability import sink
from decode.observability.config import tracing_configured
from decode.tools.environment import command_environment


@pytest.fixture(autouse=True)
def no_sinks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sink, "_opened", {})


def test_tracing_is_configured_by_a_key_or_a_url() -> None:
    assert not tracing_configured(Settings(_env_file=None))  # type: ignore[call-arg]
    assert not tracing_configured(Settings(opik_url_override="", _env_file=None))  # type: ignore[call-arg]
    assert tracing_configured(Settings(opik_api_key="k", _env_file=None))  # type: ignore[call-arg]
    assert tracing_configured(Settings(opik_url_override="http://127.0.0.1:1/api", _env_file=None))  # type: ignore[call-arg]


def test_unconfigured_there_is_no_sink() -> None:
    assert sink.open_sink(Settings(_env_file=None)) is None  # type: ignore[call-arg]


def test_configured_without_opik_installed_is_one_warning_and_no_tracing(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "decode.observability.opik_tracer", None)  # as if the extra were missing
    settings = Settings(opik_url_override="http://127.0.0.1:1/api", _env_file=None)  # type: ignore[call-arg]

    with caplog.at_level(logging.WARNING):
        assert sink.open_sink(settings) is None
        assert sink.open_sink(settings) is None

    (record,) = caplog.records
    assert "opik is not installed" in record.getMessage()
    assert "decode[tracing]" in record.getMessage()


def test_the_opik_key_is_a_secret_kept_from_commands_and_logs() -> None:
    assert "OPIK_API_KEY" in Settings.secret_env_names()
    environment = command_environment({"OPIK_API_KEY": "opik-secret", "PATH": "/bin"}, Settings.secret_env_names())
    assert "OPIK_API_KEY" not in environment
    settings = Settings(opik_api_key="opik-secret", _env_file=None)  # type: ignore[call-arg]
    assert "opik-secret" not in repr(settings)
    assert "opik-secret" not in str(settings.model_dump())


def test_with_opik_loaded_its_sentry_and_analytics_stay_off() -> None:
    import subprocess

    probe = (
        "from decode.observability import opik_tracer\n"
        "import sentry_sdk\n"
        "from opik.config import OpikConfig\n"
        "config = OpikConfig()\n"
        "print(config.sentry_enable, config.analytics_enable, sentry_sdk.get_client().is_active())\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.split() == ["False", "False", "False"]
