"""A stdio MCP server whose tools answer with each kind of MCP content, for the content tests.

`blob` embeds a binary resource of any MIME type (a gzip file by default, as the reference
`everything` server does); `annotated` mixes parts for the user, the assistant and both, with
priorities; `link`, `text_resource`, `structured`, `audio`, `image` and `failing` are what they say.
"""

import base64
import gzip

from mcp.server.mcpserver import MCPServer
from mcp_types import (
    Annotations,
    AudioContent,
    BlobResourceContents,
    CallToolResult,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
)

PNG = base64.b64encode(
    base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")
).decode()
server = MCPServer("content")


def result(*content: object, structured: dict | None = None, error: bool = False) -> CallToolResult:
    return CallToolResult(content=list(content), structured_content=structured, is_error=error)  # type: ignore[arg-type]


@server.tool(structured_output=False)
def blob(mime: str = "application/gzip", text: str = "hello world\n") -> CallToolResult:
    """An embedded binary resource: `text`, gzipped unless `mime` is a text type."""
    data = text.encode() if mime.startswith("text/") else gzip.compress(text.encode(), mtime=0)
    resource = BlobResourceContents(uri="demo://file.gz", mime_type=mime, blob=base64.b64encode(data).decode())
    return result(EmbeddedResource(type="resource", resource=resource))


@server.tool(structured_output=False)
def text_resource() -> CallToolResult:
    """An embedded text resource."""
    resource = TextResourceContents(uri="file:///notes.md", mime_type="text/markdown", text="# Notes\nbuy milk")
    return result(EmbeddedResource(type="resource", resource=resource))


@server.tool(structured_output=False)
def link() -> CallToolResult:
    """A resource link with every detail."""
    return result(
        ResourceLink(
            type="resource_link", uri="demo://report.pdf", name="report.pdf", title="Quarterly report",
            description="The Q3 numbers", mime_type="application/pdf", size=12_345,
        )
    )  # fmt: skip


@server.tool(structured_output=False)
def annotated() -> CallToolResult:
    """Parts for the user only, for the assistant (low priority) and for both (high priority)."""
    return result(
        TextContent(type="text", text="for your eyes only", annotations=Annotations(audience=["user"])),
        TextContent(type="text", text="debug detail", annotations=Annotations(audience=["assistant"], priority=0.2)),
        TextContent(type="text", text="disk full", annotations=Annotations(audience=["user", "assistant"], priority=1)),
        ImageContent(type="image", data=PNG, mime_type="image/png", annotations=Annotations(audience=["user"])),
    )


@server.tool(structured_output=False)
def structured() -> CallToolResult:
    """Structured content with its text copy, as the spec asks."""
    return result(TextContent(type="text", text='{"temperature": 21}'), structured={"temperature": 21})


@server.tool(structured_output=False)
def audio() -> CallToolResult:
    """A short audio clip."""
    return result(
        AudioContent(type="audio", data=base64.b64encode(b"RIFF" + b"\0" * 40).decode(), mime_type="audio/wav")
    )


@server.tool(structured_output=False)
def image(mime: str = "image/png") -> CallToolResult:
    """An image of type `mime`."""
    return result(ImageContent(type="image", data=PNG, mime_type=mime))


@server.tool(structured_output=False)
def failing() -> CallToolResult:
    """A result marked as an error, with a binary part."""
    return result(
        TextContent(type="text", text="quota exceeded"),
        ImageContent(type="image", data=PNG, mime_type="image/png"),
        error=True,
    )


if __name__ == "__main__":
    server.run()
