"""Tracing is on only when the user configured it; its key is a secret like the others."""

import sys

import pytest

from decode.config.settings import Settings
from decode.observability import sink
from decode.observability.config import tracing_configured
from decode.processes.environment import command_environment


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


def test_configured_tracing_opens_one_sink_per_process() -> None:
    settings = Settings(opik_url_override="http://127.0.0.1:1/api", _env_file=None)  # type: ignore[call-arg]

    opened = sink.open_sink(settings)

    assert opened is not None
    assert sink.open_sink(settings) is opened
    opened.close(0)


def test_the_opik_key_is_a_secret_kept_from_commands_and_logs() -> None:
    assert "OPIK_API_KEY" in Settings.secret_env_names()
    environment = command_environment({"OPIK_API_KEY": "opik-secret", "PATH": "/bin"}, Settings.secret_env_names())
    assert "OPIK_API_KEY" not in environment
    settings = Settings(opik_api_key="opik-secret", _env_file=None)  # type: ignore[call-arg]
    assert "opik-secret" not in repr(settings)
    assert "opik-secret" not in str(settings.model_dump())


def test_a_traced_process_imports_no_opik_sdk_and_no_sentry() -> None:
    """`import opik` alone took half of a tiny `decode run` (ADR-0098), and it reports to Sentry and Comet."""
    import subprocess

    probe = (
        "import sys\n"
        "from decode.config.settings import Settings\n"
        "from decode.observability.sink import open_sink\n"
        "sink = open_sink(Settings(opik_url_override='http://127.0.0.1:1/api', _env_file=None))\n"
        "print(sink is not None, sorted({name.split('.')[0] for name in sys.modules} & {'opik', 'sentry_sdk'}))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True)
    assert done.stdout.split(maxsplit=1) == ["True", "[]\n"]
