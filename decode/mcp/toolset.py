"""The MCP servers' tools as one toolset of the agent, read again at every request.

`McpTools.get_tools()` runs before each model request: it waits for servers still starting (each
until its start-up timeout), then offers the tools of the servers ready at that moment, named
`mcp__<server>__<tool>` (`names.py`) and carrying traits like every decode tool, so the
Permission Gate judges them: kind `other`, answering to their own name (and so to `mcp__<server>`
and `mcp__<server>__*` rules). A server's hints (`readOnlyHint`) are its own word, not trusted
(ADR-0054). When the definitions are larger than `defer_over` characters, they are marked for
deferred loading: the model then sees pydantic-ai's `search_tools` and gets a tool's schema when
it searches for it (Tool Search, ADR-0056).

A call has the server's `tool_timeout_sec`; its output is capped like every tool's; a broken
connection is a crash (`McpServer.crashed`); a malformed answer is an error at once (`health.py`).
Each of those comes back as a failed result the model can read, never as an error that ends the
turn. The servers whose tools are unavailable are named in the model's instructions.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import pydantic
from pydantic_ai import RunContext
from pydantic_ai.capabilities import AbstractCapability, CapabilityOrdering
from pydantic_ai.exceptions import ModelRetry, ToolFailed
from pydantic_ai.mcp import TOOL_SCHEMA_VALIDATOR
from pydantic_ai.tools import ToolDefinition
from pydantic_ai.toolsets import AbstractToolset, PreparedToolset, ToolsetTool

from decode.config.redaction import redactor_for
from decode.entities.deps import AgentDeps
from decode.entities.tools import TRAITS_KEY, ToolKind, ToolTraits
from decode.mcp.content import BINARY_LIMIT, call
from decode.mcp.health import MALFORMED, malformed_result, unavailable_note
from decode.mcp.names import rule_names, tool_name
from decode.mcp.servers import McpServer, McpServers
from decode.tools.truncate import shorten
from decode.visible import visible

if TYPE_CHECKING:
    from mcp import types as mcp_types

logger = logging.getLogger(__name__)

DEFER_OVER = 6_000
"""Characters of MCP tool definitions past which they are loaded on demand (Tool Search)."""
DESCRIPTION_LIMIT = 2_000
"""Characters of a tool's description the model sees (a server's text, sent on every request)."""


def definition(name: str, tool: mcp_types.Tool, rules: tuple[str, ...] = ()) -> ToolDefinition:
    """The definition the model sees for `tool` under `name`, with its traits in the metadata."""
    annotations = tool.annotations.model_dump(by_alias=True) if tool.annotations else None
    description = tool.description or ""
    if len(description) > DESCRIPTION_LIMIT:
        description = description[: DESCRIPTION_LIMIT - 1] + "…"
    return ToolDefinition(
        name=name,
        description=description,
        parameters_json_schema=dict(tool.input_schema) if tool.input_schema else {"type": "object"},
        metadata={TRAITS_KEY: ToolTraits(ToolKind.OTHER, rules=rules or (name,)), "annotations": annotations},
    )


def definitions_size(definitions: list[ToolDefinition]) -> int:
    """About what the definitions cost on every request: their names, descriptions and schemas."""
    return sum(len(d.name) + len(d.description or "") + len(json.dumps(d.parameters_json_schema)) for d in definitions)


@dataclass
class McpTools(AbstractToolset[AgentDeps]):
    """Every ready server's tools, routed to their server."""

    servers: McpServers
    defer_over: int = DEFER_OVER
    _routes: dict[str, tuple[McpServer, str]] = field(default_factory=dict)
    _reported: set[str] = field(default_factory=set)

    @property
    def id(self) -> str | None:
        return "mcp"

    async def __aenter__(self) -> McpTools:
        return self  # the servers live as long as the conversation, not one run

    async def __aexit__(self, *args: Any) -> bool | None:
        return None

    async def get_tools(self, ctx: RunContext[AgentDeps]) -> dict[str, ToolsetTool[AgentDeps]]:
        await self.servers.wait_for_starting()
        routes: dict[str, tuple[McpServer, str]] = {}
        definitions: list[ToolDefinition] = []
        for server in self.servers.ready():
            for tool in server.tools:
                name = tool_name(server.name, tool.name)
                if name in routes:
                    self._collision(name, server, tool.name, routes[name])
                    continue
                routes[name] = (server, tool.name)
                definitions.append(definition(name, tool, rule_names(server.name, tool.name)))
        if definitions_size(definitions) > self.defer_over:
            definitions = [replace(d, defer_loading=True) for d in definitions]
        self._routes = routes
        return {
            d.name: ToolsetTool(
                toolset=self, tool_def=d, max_retries=ctx.max_retries, args_validator=TOOL_SCHEMA_VALIDATOR
            )
            for d in definitions
        }

    async def get_instructions(self, ctx: RunContext[AgentDeps]) -> str | None:
        """The servers whose tools are unavailable, by name: the model does not go looking for them."""
        return unavailable_note(self.servers)

    def _collision(self, name: str, server: McpServer, tool: str, first: tuple[McpServer, str]) -> None:
        if (key := f"{server.name}\0{tool}") in self._reported:
            return
        self._reported.add(key)
        logger.warning(
            "MCP tool %r of server %s is named %s, like %r of server %s: it is left out (rename a server in %s)",
            tool, visible(server.name), name, first[1], visible(first[0].name), server.config.source,
        )  # fmt: skip

    async def call_tool(
        self, name: str, tool_args: dict[str, Any], ctx: RunContext[AgentDeps], tool: ToolsetTool[AgentDeps]
    ) -> Any:
        if name not in self._routes:  # withdrawn since the request was built
            raise ToolFailed(f"{name} is not available any more: its MCP server stopped.")
        server, original = self._routes[name]
        toolset = server.toolset
        if toolset is None or server.state != "ready":
            raise ToolFailed(f"The MCP server {server.name} is not available ({server.state} {server.reason}).")
        timeout = server.config.definition.tool_timeout_sec
        try:
            with server.features.calling(server.name, ctx.tool_call_id or name, name):  # its progress is this call's
                async with asyncio.timeout(timeout):
                    result = await call(toolset, original, tool_args)
        except TimeoutError:
            raise ToolFailed(
                f"{name} timed out after {timeout:g}s: the MCP server {server.name} did not answer. "
                "Try something else, or ask the user."
            ) from None
        except pydantic.ValidationError as exc:  # an answer, so the server is alive: not a crash
            raise ToolFailed(malformed_result(name, server, exc)) from None
        except (ToolFailed, ModelRetry) as exc:
            if MALFORMED in str(exc):  # decode's transport turned an invalid answer into this error
                raise ToolFailed(f"{name} failed: {exc}") from None
            if await _alive(server):
                raise
            await server.crashed(exc)
            raise ToolFailed(_stopped(server, name)) from None
        except Exception as exc:
            await server.crashed(exc)
            raise ToolFailed(_stopped(server, name)) from None
        return _capped(result, ctx, name)


SEARCH_TOOL = "search_tools"
SEARCH_TRAITS = ToolTraits(ToolKind.SIDE_EFFECT_FREE)
"""`search_tools` only reads the deferred tools' names and descriptions: it never needs asking."""


@dataclass
class SearchTraits(AbstractCapability[Any]):
    """Gives pydantic-ai's `search_tools` (Tool Search) its traits, so the Permission Gate lets it run.

    It wraps the tool search (which adds `search_tools` outside every other toolset) and marks that one tool.
    """

    @classmethod
    def get_serialization_name(cls) -> str | None:
        return None  # built in code, never from an agent spec file

    def get_ordering(self) -> CapabilityOrdering:
        from pydantic_ai.capabilities import ToolSearch

        return CapabilityOrdering(position="outermost", wraps=[ToolSearch])

    def get_wrapper_toolset(self, toolset: AbstractToolset[Any]) -> AbstractToolset[Any]:
        async def mark(ctx: RunContext[Any], tool_defs: list[ToolDefinition]) -> list[ToolDefinition]:
            return [
                replace(d, metadata={**(d.metadata or {}), TRAITS_KEY: SEARCH_TRAITS}) if d.name == SEARCH_TOOL else d
                for d in tool_defs
            ]

        return PreparedToolset(toolset, mark)


def _stopped(server: McpServer, name: str) -> str:
    then = " while it reconnects." if server.state == "starting" else "."
    return (
        f"The MCP server {server.name} stopped during this call of {name} (it crashed); its tools are withdrawn{then}"
    )


async def _alive(server: McpServer) -> bool:
    """Does the server still answer? A tool's own error leaves it alive; a crash does not.

    Any answer to `ping` counts, an error too: `mcp-server-git` answers it "Method not found".
    Only silence or a closed connection (which the SDK reports as an error of its own) is a crash.
    """
    from mcp.shared.exceptions import MCPError as McpError
    from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT

    toolset = server.toolset
    if toolset is None:
        return False
    try:
        async with asyncio.timeout(2):
            await toolset.client.ping()
    except McpError as exc:
        return exc.code not in (CONNECTION_CLOSED, REQUEST_TIMEOUT)
    except Exception:
        return False
    return True


def _capped(result: Any, ctx: RunContext[AgentDeps], name: str) -> Any:
    """The result, its text cut to the tool output limit like every tool's (the rest saved to a file),
    an image or other binary part past `BINARY_LIMIT` left out."""
    from pydantic_ai.messages import BinaryContent

    if isinstance(result, BinaryContent):
        return _binary(result)
    if isinstance(result, list) and any(isinstance(part, BinaryContent) for part in result):
        text = [part for part in result if not isinstance(part, BinaryContent)]
        binaries = [_binary(part) for part in result if isinstance(part, BinaryContent)]
        kept = _capped(text, ctx, name) if text else []
        return [*(kept if isinstance(kept, list) else [kept]), *binaries]
    if isinstance(result, (dict, list)):
        text = json.dumps(result, ensure_ascii=False, default=str)
        limit, redactor = ctx.deps.settings.tool_output_limit, redactor_for(ctx.deps.settings)
        if len(text) <= limit:
            return result
        return shorten(text, limit, harness_home=ctx.deps.harness_home, label=name, redactor=redactor)
    if isinstance(result, str):
        limit, redactor = ctx.deps.settings.tool_output_limit, redactor_for(ctx.deps.settings)
        return shorten(result, limit, harness_home=ctx.deps.harness_home, label=name, redactor=redactor)
    return result


def _binary(part: Any) -> Any:
    if len(part.data) <= BINARY_LIMIT:
        return part
    return f"[{part.media_type} of {len(part.data):,} bytes left out: over the {BINARY_LIMIT:,}-byte limit]"
