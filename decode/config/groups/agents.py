"""The subagents' settings (lesson 15)."""

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings


class AgentSettings(BaseSettings):
    max_subagents: int = Field(4, ge=1, le=32, validation_alias=AliasChoices("DECODE_MAX_SUBAGENTS"))
    """Subagents one conversation runs at the same time; more `agent` calls wait for a free place."""

    subagent_max_requests: int = Field(25, ge=1, validation_alias=AliasChoices("DECODE_SUBAGENT_MAX_REQUESTS"))
    """Ceiling on one subagent's model requests; past it, the parent is told what it had found so far."""

    subagent_timeout: float = Field(600.0, gt=0, validation_alias=AliasChoices("DECODE_SUBAGENT_TIMEOUT"))
    """Seconds one subagent may run; then it is stopped (its commands too) and the parent told."""

    subagent_report_chars: int = Field(20_000, ge=1_000, validation_alias=AliasChoices("DECODE_SUBAGENT_REPORT_CHARS"))
    """Characters of a subagent's final answer its parent receives; past it, the start and a note."""

    subagent_model: str | None = Field(None, validation_alias=AliasChoices("DECODE_SUBAGENT_MODEL"))
    """The model of subagents whose agent says `model: inherit`; unset: the parent's own model."""
