"""The file tools' settings (lesson 04)."""

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings


class ToolSettings(BaseSettings):
    tool_output_limit: int = Field(30_000, ge=1_000, validation_alias=AliasChoices("DECODE_TOOL_OUTPUT_LIMIT"))
    """Characters of one tool output the model sees; past it, the head and the tail, and the full
    text is saved under `.decode/tool-output/`."""
