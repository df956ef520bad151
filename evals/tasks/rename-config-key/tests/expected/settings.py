"""Load the connection pool settings: built-in defaults, overridden by an optional user file."""

import json
from pathlib import Path

DEFAULTS = Path(__file__).parent / "config" / "defaults.json"


def load_settings(user_file: str | None = None) -> dict:
    """Return the defaults from config/defaults.json updated with the keys of ``user_file``."""
    settings = json.loads(DEFAULTS.read_text())
    if user_file is not None:
        settings.update(json.loads(Path(user_file).read_text()))
    if settings["max_connections"] < 1:
        raise ValueError("max_connections must be at least 1")
    if settings["max_conn_per_host"] > settings["max_connections"]:
        raise ValueError("max_conn_per_host cannot exceed max_connections")
    return settings
