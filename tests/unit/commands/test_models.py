"""`decode models`: the model in use, each provider's key (set or not, never its value), the aliases."""

from pathlib import Path

import pytest
from click.testing import CliRunner

import decode.config.settings as settings_module
from decode.commands.models import models

SECRET = "sk-ant-test-0123456789-never-shown"


@pytest.fixture(autouse=True)
def fresh_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """The settings object is built once a process: each test reads its own environment."""
    monkeypatch.delitem(vars(settings_module), "settings", raising=False)


def test_one_key_set_shows_which_provider_and_aliases_are_ready(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", SECRET)
    monkeypatch.setenv("DECODE_MODEL", "sonnet")
    monkeypatch.setenv("DECODE_MODEL_ALIASES", '{"fast": "openai:gpt-5-mini"}')

    result = CliRunner().invoke(models, [])

    assert result.exit_code == 0, result.output
    lines = [" ".join(line.split()) for line in result.stdout.splitlines()]
    assert lines[0] == "model sonnet → anthropic:claude-sonnet-5 (DECODE_MODEL) ready"
    assert "anthropic: ANTHROPIC_API_KEY set" in lines
    assert "openai: OPENAI_API_KEY not set" in lines
    assert "haiku anthropic:claude-haiku-4-5 ready" in lines
    assert "gpt-5 openai:gpt-5 not ready" in lines
    assert lines[-1] == "fast openai:gpt-5-mini not ready (yours)"
    assert SECRET not in result.output


def test_a_bad_alias_table_is_one_line_and_exit_2(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECODE_MODEL_ALIASES", "sonnet=anthropic:x")

    result = CliRunner().invoke(models, [])

    assert result.exit_code == 2
    assert result.stderr == (
        "decode: error: invalid setting model_aliases: its value is not JSON (check the environment and .env)\n"
    )
