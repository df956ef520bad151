"""Reading the settings in a front end: a bad value is one line naming the setting, not a traceback."""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # importing the module builds the settings object: that is what may fail
    from decode.config.settings import Settings


class ConfigError(ValueError):
    """The settings cannot be read; the message names the setting and what is wrong."""


def load_settings() -> "Settings":
    """decode's settings object (`decode.config.settings.settings`), or a `ConfigError`."""
    from pydantic import ValidationError

    try:
        from decode.config.settings import settings
    except ValidationError as exc:
        problem = exc.errors()[0]
        name = ".".join(str(part) for part in problem["loc"])
        raise ConfigError(f"invalid setting {name}: {problem['msg']} (check the environment and .env)") from None
    return settings
