from pathlib import Path

import pytest
from pydantic import ValidationError

from decode.config.settings import DEFAULT_MODEL, Settings


def test_defaults_apply_when_nothing_is_set(project: Path) -> None:
    settings = Settings()
    assert settings.model == DEFAULT_MODEL
    assert settings.gemini_api_key is None
    assert settings.max_requests == 50


def test_priority_is_init_then_env_then_dotenv(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (project / ".env").write_text("DECODE_MODEL=openrouter:from-dotenv\nDECODE_MAX_REQUESTS=7\n")
    assert Settings().model == "openrouter:from-dotenv"
    assert Settings().max_requests == 7

    monkeypatch.setenv("DECODE_MODEL", "openrouter:from-env")
    assert Settings().model == "openrouter:from-env"
    assert Settings().max_requests == 7  # still from .env

    assert Settings(model="test").model == "test"


def test_keys_are_secret_everywhere_but_at_their_use(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "sk-very-secret")
    settings = Settings()
    assert "sk-very-secret" not in repr(settings)
    assert "sk-very-secret" not in str(settings.model_dump())
    assert "sk-very-secret" not in settings.model_dump_json()
    assert settings.gemini_api_key is not None
    assert settings.gemini_api_key.get_secret_value() == "sk-very-secret"


def test_google_api_key_is_accepted_as_an_alias(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GOOGLE_API_KEY", "g-key")
    key = Settings().gemini_api_key
    assert key is not None
    assert key.get_secret_value() == "g-key"


def test_decode_env_changes_no_other_setting(project: Path) -> None:
    dev, prod = Settings(env="dev"), Settings(env="prod")
    assert dev.model_dump(exclude={"env"}) == prod.model_dump(exclude={"env"})


def test_invalid_value_names_the_variable(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECODE_MAX_REQUESTS", "lots")
    with pytest.raises(ValidationError) as caught:
        Settings()
    assert caught.value.errors()[0]["loc"] == ("DECODE_MAX_REQUESTS",)


def test_malformed_dotenv_lines_do_not_stop_the_rest(project: Path) -> None:
    (project / ".env").write_text("this is not a setting\nDECODE_MODEL=test\n")
    assert Settings().model == "test"


def test_env_file_is_resolved_in_the_launch_directory(project: Path) -> None:
    assert Settings().env_file == project / ".env"


def test_pass_env_is_empty_by_default(project: Path) -> None:
    assert Settings().pass_env == []


@pytest.mark.parametrize(
    ("raw", "names"),
    [
        ("GITHUB_TOKEN", ["GITHUB_TOKEN"]),
        ("GITHUB_TOKEN,AWS_*", ["GITHUB_TOKEN", "AWS_*"]),
        (" GITHUB_TOKEN , NPM_TOKEN  HF_TOKEN ", ["GITHUB_TOKEN", "NPM_TOKEN", "HF_TOKEN"]),
        ('["GITHUB_TOKEN", "AWS_*"]', ["GITHUB_TOKEN", "AWS_*"]),
        ("", []),
    ],
)
def test_pass_env_reads_names_separated_by_commas_or_a_json_list(
    project: Path, monkeypatch: pytest.MonkeyPatch, raw: str, names: list[str]
) -> None:
    monkeypatch.setenv("DECODE_PASS_ENV", raw)
    assert Settings().pass_env == names


def test_pass_env_never_comes_from_a_project_dotenv(project: Path) -> None:
    (project / ".env").write_text("DECODE_PASS_ENV=GITHUB_TOKEN,NPM_TOKEN\n")
    assert Settings().pass_env == []  # a repository cannot ask for your tokens (ADR-0068)


def test_a_broken_json_pass_env_names_the_variable(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECODE_PASS_ENV", '["GITHUB_TOKEN"')
    with pytest.raises(ValidationError) as caught:
        Settings()
    assert caught.value.errors()[0]["loc"] == ("DECODE_PASS_ENV",)
    assert "comma" in caught.value.errors()[0]["msg"]


def test_every_settings_group_is_composed_into_settings() -> None:
    """A lesson's settings group left out of `Settings` would be a setting nobody can set."""
    import importlib
    import pkgutil

    from pydantic_settings import BaseSettings

    import decode.config.groups as groups

    found = set()
    for module in pkgutil.iter_modules(groups.__path__):
        loaded = importlib.import_module(f"{groups.__name__}.{module.name}")
        found |= {
            value
            for value in vars(loaded).values()
            if isinstance(value, type) and issubclass(value, BaseSettings) and value.__module__ == loaded.__name__
        }
    assert found
    assert found <= set(Settings.__mro__)
