"""The file tools' settings (lesson 04)."""

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings


class ToolSettings(BaseSettings):
    tool_output_limit: int = Field(30_000, ge=1_000, validation_alias=AliasChoices("DECODE_TOOL_OUTPUT_LIMIT"))
    """Characters of one tool output the model sees; past it, the head and the tail, and the full
    text is saved under `.decode/tool-output/`."""
    image_max_bytes: int = Field(5 * 1024 * 1024, ge=1, validation_alias=AliasChoices("DECODE_IMAGE_MAX_BYTES"))
    """Bytes of an image `read` sends the model (PNG, JPEG, GIF, WebP); a larger one is refused in
    one line. 5 MiB is Anthropic's limit per image."""
