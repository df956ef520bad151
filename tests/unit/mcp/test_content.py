"""Each kind of MCP content, from a real stdio server (one for the module), becomes what the model can use
or a clear note."""

from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio
from pydantic_ai.exceptions import ModelRetry, ToolFailed
from pydantic_ai.messages import BinaryImage

from decode.mcp.content import BINARY_LIMIT, call
from tests.unit.mcp.conftest import ServerEntry

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def content(server_entry: ServerEntry) -> AsyncIterator[Any]:
    from fastmcp.client.transports import StdioTransport
    from pydantic_ai.mcp import MCPToolset

    entry = server_entry("content_server.py")
    transport = StdioTransport(entry["command"], entry["args"], keep_alive=False)
    async with MCPToolset(transport, tool_error_behavior="failed") as toolset:
        yield toolset


async def test_an_embedded_binary_resource_is_a_note_with_its_type_and_size(content: Any) -> None:
    result = await call(content, "blob", {})

    assert (
        result
        == "[resource demo://file.gz: application/gzip, 32 bytes, left out: binary content the model cannot read]"
    )


async def test_an_embedded_blob_of_a_text_type_is_its_text(content: Any) -> None:
    assert (
        await call(content, "blob", {"mime": "text/plain"}) == "[resource demo://file.gz (text/plain)]\nhello world\n"
    )


async def test_an_embedded_text_resource_keeps_its_uri_and_type(content: Any) -> None:
    assert await call(content, "text_resource", {}) == "[resource file:///notes.md (text/markdown)]\n# Notes\nbuy milk"


async def test_a_resource_link_names_its_title_uri_type_size_and_description(content: Any) -> None:
    result = await call(content, "link", {})

    assert (
        result == "[resource link: Quarterly report <demo://report.pdf> (application/pdf, 12,345 bytes)] The Q3 numbers"
    )


async def test_parts_for_the_user_only_are_left_out_and_the_important_come_first(content: Any) -> None:
    result = await call(content, "annotated", {})

    assert result == ["disk full", "debug detail", "[2 parts of this result meant for the user only: not shown]"]


async def test_structured_content_replaces_its_text_copy(content: Any) -> None:
    assert await call(content, "structured", {}) == {"temperature": 21}


async def test_audio_is_a_note_and_an_image_the_model_takes_is_an_image(content: Any) -> None:
    assert (
        await call(content, "audio", {})
        == "[audio: audio/wav, 44 bytes, left out: binary content the model cannot read]"
    )
    image = await call(content, "image", {})
    assert isinstance(image, BinaryImage)
    assert image.media_type == "image/png"
    assert image.data.startswith(b"\x89PNG")
    assert "image/tiff, 70 bytes, left out" in await call(content, "image", {"mime": "image/tiff"})
    assert BINARY_LIMIT == 5_000_000


async def test_a_result_marked_as_an_error_fails_with_its_text(content: Any) -> None:
    with pytest.raises(ToolFailed, match=r"^quota exceeded\n\[image/png, 70 bytes\]$"):
        await call(content, "failing", {})


async def test_an_unknown_tool_is_the_servers_error_for_the_model(content: Any) -> None:
    with pytest.raises((ModelRetry, ToolFailed), match="Unknown tool: nope"):
        await call(content, "nope", {})
