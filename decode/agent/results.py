"""A tool result made fit to keep, before it joins the conversation.

Whatever a tool returns is sent to the provider as JSON, written to the Session Log as JSON and
shown in the terminal. A file name that is not UTF-8 (`caf\\udce9.txt`) in a result, or a value
JSON cannot hold, used to fail only later: the whole turn ended with it. `keep_safe` is the one
place every result (built-in tools, MCP tools, refusals, denials) passes: names are spelled with
`\\xNN` escapes (`escape_bytes`), then the result is serialised as the Session Log will; one that
still cannot be becomes a failed result saying so, and the turn goes on.
"""

from typing import Any

from pydantic_ai.messages import RetryPromptPart, ToolReturnPart
from pydantic_core import to_json

from decode.escaped_bytes import escape_bytes


def escaped(value: Any) -> Any:
    """`value` with every text in it (nested in lists and dicts too) passed through `escape_bytes`."""
    if isinstance(value, str):
        return escape_bytes(value)
    if isinstance(value, list | tuple):
        return [escaped(item) for item in value]
    if isinstance(value, dict):
        return {escaped(key): escaped(item) for key, item in value.items()}
    return value


def _serialisable(value: Any) -> str | None:
    """None when `value` serialises as the Session Log writes it; else why not."""
    try:
        to_json(value, bytes_mode="base64")
    except (ValueError, TypeError, UnicodeError) as exc:  # PydanticSerializationError is a ValueError
        return " ".join(str(exc).split())[:200] or type(exc).__name__
    return None


def keep_safe(part: ToolReturnPart | RetryPromptPart) -> None:
    """Make `part`'s content serialisable, in place (the part is the one the history keeps)."""
    if _serialisable(part.content) is None:
        return
    part.content = escaped(part.content)
    if (why := _serialisable(part.content)) is None:
        return
    message = (
        f"decode could not keep the result of {part.tool_name or 'this tool'}: it cannot be written as JSON ({why})."
    )
    part.content = escape_bytes(message)
    if isinstance(part, ToolReturnPart):
        part.outcome = "failed"
