"""A trace and its spans as plain data: what the observer records and a backend (Opik) receives.

A span is written once, complete, when it ends (never created then updated: Opik batches its
messages, and an update may overtake the create it changes).
"""

import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

SpanType = Literal["general", "llm", "tool"]
Outcome = Literal["ok", "error", "refused"]


def new_id() -> str:
    """A UUIDv7 (time-ordered), the id form Opik requires for traces and spans."""
    millis = int(datetime.now(UTC).timestamp() * 1000)
    value = (millis & ((1 << 48) - 1)) << 80 | (0x7 << 76) | (uuid.uuid4().int & ((1 << 76) - 1))
    value = (value & ~(0x3 << 62)) | (0x2 << 62)  # the RFC 4122 variant
    return str(uuid.UUID(int=value))


def now() -> datetime:
    return datetime.now(UTC)


@dataclass
class ErrorInfo:
    """Why a turn or a span failed: the exception's type and message."""

    exception_type: str
    message: str

    @classmethod
    def of(cls, error: BaseException) -> "ErrorInfo":
        return cls(type(error).__name__, " ".join(str(error).split())[:500] or type(error).__name__)


@dataclass
class TraceRecord:
    """One turn: the prompt, the answer, the session as its thread."""

    id: str
    name: str
    input: dict[str, Any]
    thread_id: str | None
    metadata: dict[str, Any] = field(default_factory=dict)
    start: datetime = field(default_factory=now)
    end: datetime | None = None
    output: dict[str, Any] | None = None
    error: ErrorInfo | None = None


@dataclass
class SpanRecord:
    """One step of a turn: a model request (`llm`), a tool call (`tool`), a subagent's turn (`general`)."""

    id: str
    trace_id: str
    parent_id: str | None
    name: str
    type: SpanType
    input: dict[str, Any] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)
    start: datetime = field(default_factory=now)
    end: datetime | None = None
    output: dict[str, Any] | None = None
    model: str | None = None
    provider: str | None = None
    usage: dict[str, int] | None = None
    cost_usd: float | None = None
    error: ErrorInfo | None = None
