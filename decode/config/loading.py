"""Reading the settings in a front end: a bad value is one line naming the setting, not a traceback."""

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # importing the module builds the settings object: that is what may fail
    from pydantic_core import ErrorDetails

    from decode.config.settings import Settings


class ConfigError(ValueError):
    """The settings cannot be read; the message names the setting and what is wrong."""


def load_settings() -> "Settings":
    """decode's settings object (`decode.config.settings.settings`), or a `ConfigError`."""
    from pydantic import ValidationError
    from pydantic_settings import SettingsError

    try:
        from decode.config.settings import settings
    except SettingsError as exc:  # a JSON setting (DECODE_MODEL_ALIASES…) that is not JSON
        field = re.search(r'field "(\w+)"', str(exc))
        name = field[1] if field else "?"
        raise ConfigError(f"invalid setting {name}: its value is not JSON (check the environment and .env)") from None
    except ValidationError as exc:
        problem = exc.errors()[0]
        name = ".".join(str(part) for part in problem["loc"])
        message = f"invalid setting {name}{_value(problem)}: {problem['msg']}"
        raise ConfigError(f"{message} (check the environment and .env)") from None
    return settings


def _value(problem: "ErrorDetails") -> str:
    """` = 'value'` when a whole setting's short text is what failed, so the user sees what was read.
    A secret never fails here (any text is a valid key), and a part of a JSON setting is not shown."""
    value = problem.get("input")
    if len(problem["loc"]) != 1 or not isinstance(value, str) or len(value) > 80:
        return ""
    return f" = {value!r}"
