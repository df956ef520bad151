"""A conversation as a person sees it: who said what, and when."""

from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, Field


def utc_now() -> datetime:
    """The current time, timezone-aware in UTC (decode never stores naive datetimes)."""
    return datetime.now(UTC)


class ChatMessage(BaseModel):
    """One message of the transcript: the user's prompt or the agent's final answer."""

    role: Literal["user", "assistant"]
    text: str
    at: datetime = Field(default_factory=utc_now)
