"""Commands get the user's environment without decode's secrets."""

from decode.config.settings import Settings
from decode.tools.environment import NON_INTERACTIVE, command_environment


def test_secret_names_come_from_the_settings_secret_fields() -> None:
    assert Settings.secret_env_names() >= {
        "GEMINI_API_KEY",
        "GOOGLE_API_KEY",
        "OPENROUTER_API_KEY",
        "OPENAI_API_KEY",
        "DECODE_MODAL_LLM_TOKEN",
    }
    assert "DECODE_MODEL" not in Settings.secret_env_names()


def test_secrets_are_removed_and_the_rest_kept() -> None:
    base = {"PATH": "/bin", "HOME": "/home/u", "GEMINI_API_KEY": "k1", "openai_api_key": "k2", "DECODE_MODEL": "m"}
    env = command_environment(base, Settings.secret_env_names())
    assert env == {"PATH": "/bin", "HOME": "/home/u", "DECODE_MODEL": "m", **NON_INTERACTIVE}
