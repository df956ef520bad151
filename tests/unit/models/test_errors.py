import pytest

from decode.models.errors import MissingKeyError, ModelConfigError


def test_a_missing_key_names_the_variable_the_provider_and_the_env_file() -> None:
    error = MissingKeyError("GEMINI_API_KEY", "google-gla:", "/home/me/project/.env")

    assert str(error) == (
        "GEMINI_API_KEY is not set: google-gla: models need it (export it or add it to /home/me/project/.env)"
    )
    assert error.variable == "GEMINI_API_KEY"
    assert "\n" not in str(error)  # front ends print it as one line


def test_a_missing_key_is_a_configuration_error() -> None:
    # Front ends catch ModelConfigError alone to exit with code 2.
    with pytest.raises(ModelConfigError):
        raise MissingKeyError("OPENROUTER_API_KEY", "openrouter:", ".env")
