"""The sessions' settings (lesson 11)."""

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings


class SessionSettings(BaseSettings):
    context_windows: dict[str, int] = Field(
        default_factory=dict, validation_alias=AliasChoices("DECODE_CONTEXT_WINDOWS")
    )
    """Tokens per model, as JSON: `{"openai-compatible:qwen3-coder": 32768}`; a key may end in `*`. Wins over
    DECODE_CONTEXT_WINDOW, what an OpenAI-compatible server says (`/v1/models`) and decode's table."""
