"""A tool call the model asked for, and what came back."""

from typing import Any

from pydantic import BaseModel


class ToolCall(BaseModel):
    """The model asked to run tool `name` with `args`; `id` pairs it with its result."""

    id: str
    name: str
    args: dict[str, Any]

    def summary(self, width: int = 60) -> str:
        """A one-line `name(key argument)` for progress lines."""
        first = next(iter(self.args.values()), "") if self.args else ""
        text = " ".join(str(first).split())
        if isinstance(first, list):  # a list of records (todo_write's steps) reads as its length  # [lesson 13]
            text = f"{len(first)} item{'s' if len(first) != 1 else ''}"
        if len(text) > width:
            text = text[: width - 1] + "…"
        return f"{self.name}({text})"


class ToolResult(BaseModel):
    """What a tool returned (or the error the model is shown instead)."""

    call_id: str
    name: str
    content: str
    is_error: bool = False
    duration_s: float = 0.0
    args: dict[str, Any] | None = None  # [lesson 12]
    """The arguments it ran with when a PreToolUse hook changed them (its line shows these)."""
