"""The language servers' settings (lesson 16)."""

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings

from decode.config.project_env import user_only


class LspSettings(BaseSettings):
    lsp: bool = Field(True, validation_alias=AliasChoices("DECODE_LSP"))
    """Code intelligence: the `lsp` tool, and the new errors an edit caused appended to its result.
    Off: no language server is started."""

    lsp_servers: dict[str, list[str]] = Field(
        default_factory=dict,
        validation_alias=AliasChoices("DECODE_LSP_SERVERS"),
        json_schema_extra=user_only("starts those programs on this machine"),
    )
    """Language servers by file suffix, as JSON, over the default `{".py": ["ty", "server"]}`:
    `{".py": ["pylsp"]}` uses pylsp for Python, `{".rs": ["rust-analyzer"]}` adds Rust, `[]` turns one off."""

    lsp_timeout: float = Field(10.0, gt=0, validation_alias=AliasChoices("DECODE_LSP_TIMEOUT"))
    """Seconds one `lsp` request (a server's start included) may take; then the server counts as hung."""

    lsp_edit_timeout: float = Field(2.0, gt=0, validation_alias=AliasChoices("DECODE_LSP_EDIT_TIMEOUT"))
    """Seconds the diagnostics after a `write` or `edit` may take; past it the edit's result comes without them."""
