"""The MCP client's settings (lesson 14)."""

from typing import Literal

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings

from decode.config.project_env import user_only


class McpSettings(BaseSettings):
    mcp_sampling: Literal["ask", "allow", "deny"] = Field(
        "ask",
        validation_alias=AliasChoices("DECODE_MCP_SAMPLING"),
        json_schema_extra=user_only("spends your model on an MCP server's prompts"),  # [lesson 16]
    )
    """When an MCP server asks decode's model a question (sampling): `ask` asks you each time in the
    REPL and refuses in `decode run`; `allow` lets it, in both; `deny` refuses. Each request is shown."""
