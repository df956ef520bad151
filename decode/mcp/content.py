"""What an MCP tool's result becomes for the model: every kind of content something it can use, or a note.

    text ──────────────────────▶ the text
    image (png, jpeg, gif, webp) ▶ an image the model sees (other types, or past `BINARY_LIMIT`: a note)
    audio ─────────────────────▶ a note with its type and size (few chat models take audio in a result)
    embedded resource ─────────▶ its URI, then its text; a blob as an image, as UTF-8 text, or a note
    resource link ─────────────▶ a line: its name, URI, type, size and description
    structured content ────────▶ the JSON value (the text beside it is the spec's copy of it)
    annotations ───────────────▶ a part meant only for the user is left out (a note says so);
                                 parts of higher priority come first, so a cut result keeps them

A note names what was left out (its MIME type and size), so the model can tell the user instead of
guessing, and no content a provider would refuse (a gzip file, say) ever reaches the request (ADR-0093).
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import mcp_types
from pydantic_ai.exceptions import ModelRetry, ToolFailed
from pydantic_ai.messages import BinaryContent, BinaryImage

if TYPE_CHECKING:
    from fastmcp.client.client import CallToolResult
    from pydantic_ai.mcp import MCPToolset

BINARY_LIMIT = 5_000_000
"""Bytes of an image past which it is left out (providers refuse more)."""
IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
"""The image types every provider decode talks to takes."""
TEXT_TYPES = ("text/", "application/json", "application/xml", "application/yaml", "application/javascript")
TEXT_SUFFIXES = ("+json", "+xml")

Part = str | BinaryContent | dict[str, Any] | list[Any] | int | float | bool | None


async def call(toolset: MCPToolset[Any], name: str, args: dict[str, Any]) -> Any:
    """Call tool `name` on the server and convert its result (`converted`).

    A result the server marks as an error is a `ToolFailed` carrying its text; a protocol error
    (unknown tool, bad arguments) a `ModelRetry`, as in pydantic-ai's own MCP client.
    """
    from mcp.shared.exceptions import MCPError as McpError

    async with toolset:
        try:
            result = await toolset.client.call_tool(name=name, arguments=args, raise_on_error=False)
        except McpError as exc:
            raise ModelRetry(str(exc)) from exc
        except BaseExceptionGroup as group:  # the client's task group may wrap a protocol error
            matched, rest = group.split(McpError)
            if matched is None or rest is not None:
                raise
            raise ModelRetry(str(_first(matched))) from group
    if result.is_error:
        said = _error_text(result) if result.content or result.structured_content is not None else ""
        raise ToolFailed(said or f"Tool {name!r} returned an error")
    return converted(result)


def converted(result: CallToolResult) -> Any:
    """What the model is shown for `result`: one part alone, or a list of parts."""
    parts = _for_assistant(result.content)
    shown: list[Part] = [_part(block) for block in parts]
    structured = result.structured_content
    if structured is not None:
        if isinstance(structured, dict) and set(structured) == {"result"}:  # the SDK wraps plain values
            structured = structured["result"]
        # The text parts of a result with structured content are, by the spec, that content serialised.
        text_only = all(isinstance(block, mcp_types.TextContent) for block in parts)
        shown = [structured] if text_only else [*shown, structured]
    if skipped := len(result.content) - len(parts):
        shown.append(f"[{skipped} part{'s' * (skipped > 1)} of this result meant for the user only: not shown]")
    if not shown:
        return "[the tool returned no content]"
    return shown[0] if len(shown) == 1 else shown


def _for_assistant(blocks: Sequence[mcp_types.ContentBlock]) -> list[mcp_types.ContentBlock]:
    """The blocks meant for the model (no audience, or one naming the assistant), most important first."""
    kept = [block for block in blocks if _audience(block) is None or "assistant" in (_audience(block) or [])]
    return sorted(kept, key=lambda block: -_priority(block))  # stable: equal priorities keep their order


def _audience(block: mcp_types.ContentBlock) -> list[str] | None:
    annotations = block.annotations
    return list(annotations.audience) if annotations is not None and annotations.audience is not None else None


def _priority(block: mcp_types.ContentBlock) -> float:
    annotations = block.annotations
    return annotations.priority if annotations is not None and annotations.priority is not None else 0.5


def _part(block: mcp_types.ContentBlock) -> Part:
    if isinstance(block, mcp_types.TextContent):
        return block.text
    if isinstance(block, mcp_types.ImageContent | mcp_types.AudioContent):
        kind = "image" if isinstance(block, mcp_types.ImageContent) else "audio"
        return _binary(block.data, block.mime_type, kind)
    if isinstance(block, mcp_types.ResourceLink):
        return _link(block)
    if isinstance(block, mcp_types.EmbeddedResource):
        return _resource(block.resource)
    return f"[content of type {getattr(block, 'type', '?')!r}: decode cannot show it]"


def _resource(resource: mcp_types.TextResourceContents | mcp_types.BlobResourceContents) -> Part:
    mime = resource.mime_type or "application/octet-stream"
    if isinstance(resource, mcp_types.TextResourceContents):
        return f"[resource {resource.uri} ({mime})]\n{resource.text}"
    return _binary(resource.blob, mime, f"resource {resource.uri}")


def _binary(data: str, mime: str, what: str) -> Part:
    """Base64 `data` of type `mime`: an image the model takes, text, or a note naming type and size."""
    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return f"[{what} ({mime}): its data is not valid base64, so it is not shown]"
    if mime in IMAGE_TYPES and len(raw) <= BINARY_LIMIT:
        return BinaryImage(data=raw, media_type=mime)
    if mime.startswith(TEXT_TYPES) or mime.endswith(TEXT_SUFFIXES):
        try:
            return f"[{what} ({mime})]\n{raw.decode('utf-8')}"
        except UnicodeDecodeError:
            pass
    why = f"over the {BINARY_LIMIT:,}-byte limit" if mime in IMAGE_TYPES else "binary content the model cannot read"
    return f"[{what}: {mime}, {len(raw):,} bytes, left out: {why}]"


def _link(link: mcp_types.ResourceLink) -> str:
    """A resource link as one line the model can read and quote back to the user."""
    details = [link.mime_type or "", f"{link.size:,} bytes" if link.size is not None else ""]
    kind = ", ".join(detail for detail in details if detail)
    text = f"[resource link: {link.title or link.name} <{link.uri}>" + (f" ({kind})" if kind else "") + "]"
    return f"{text} {link.description}" if link.description else text


def _error_text(result: CallToolResult) -> str:
    parts = converted(result)
    parts = parts if isinstance(parts, list) else [parts]
    return "\n".join(_as_text(part) for part in parts)


def _as_text(part: Part) -> str:
    if isinstance(part, BinaryContent):
        return f"[{part.media_type}, {len(part.data):,} bytes]"
    return part if isinstance(part, str) else json.dumps(part, ensure_ascii=False, default=str)


def _first(error: BaseException) -> BaseException:
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    return error
