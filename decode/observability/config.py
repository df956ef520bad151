"""Is tracing configured? Only then does decode start its trace sender; otherwise it runs as before."""

from decode.config.settings import Settings

CHAT_TURN = "chat_turn"
"""The trace name of a REPL turn."""
DECODE_RUN = "decode_run"
"""The trace name of a `decode run` turn."""


def tracing_configured(settings: Settings) -> bool:
    """True when the user set `OPIK_API_KEY` or `OPIK_URL_OVERRIDE` (never a project's `.env`: ADR-0068)."""
    return settings.opik_api_key is not None or bool(settings.opik_url_override)
