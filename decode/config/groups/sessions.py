"""The sessions' settings (lesson 11)."""

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings


class SessionSettings(BaseSettings):
    context_windows: dict[str, int] = Field(
        default_factory=dict, validation_alias=AliasChoices("DECODE_CONTEXT_WINDOWS")
    )
    """Tokens per model, as JSON: `{"openai-compatible:qwen3-coder": 32768}`; a key may end in `*`. Wins over
    DECODE_CONTEXT_WINDOW, what an OpenAI-compatible server says (`/v1/models`) and decode's table."""
    checkpoint_max_file_bytes: int = Field(
        default=2 << 20, ge=0, validation_alias=AliasChoices("DECODE_CHECKPOINT_MAX_FILE_BYTES")
    )
    """The largest file a turn's checkpoint keeps before `write` or `edit` changes it (2 MiB). A larger
    one is not kept: `/undo` and `/rewind` leave it as it is and say so."""
