"""What decode offers an MCP server beyond calling its tools: roots, progress, sampling, elicitation.

    roots/list              ──▶ the Workspace root, a `file://` URI (declared at `initialize`)
    notifications/progress  ──▶ `on_progress`: the running call's live line (REPL), a `progress` event (stream-json)
    sampling/createMessage  ──▶ decode's own model, once the user says yes (REPL) or `mcp_sampling=allow`
    elicitation/create      ──▶ a question through the Decision Channel; headless: declined

Sampling spends the user's model on a server's prompt, so it is gated like a tool call: the REPL
asks each time through the Decision Channel, a headless run refuses unless the `mcp_sampling`
setting says `allow`, and `deny` refuses everywhere (ADR-0094). Every request is shown on one line.
Elicitation asks the user for data: with no one to ask it is declined, never answered for them.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import logging
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from decode.entities.asking import AskUser
from decode.visible import visible

if TYPE_CHECKING:
    from fastmcp import Client
    from mcp.shared.dispatcher import ProgressFnT

logger = logging.getLogger(__name__)

SamplingPolicy = Literal["ask", "allow", "deny"]
YES, NO = "yes", "no"
ACCEPT, DECLINE = "accept", "decline"
SHOWN = 600
"""Characters of a sampling request shown to the user; a longer one says how many more it holds."""


@dataclass(frozen=True)
class McpProgress:
    """A progress notification of a running call: `progress` of `total` (None: unknown), and a message."""

    call_id: str
    tool: str
    progress: float
    total: float | None = None
    message: str | None = None

    def line(self) -> str:
        """`3/10 (30%) · copying files`: what the REPL and stderr show."""
        done = f"{self.progress:g}"
        if self.total:
            done += f"/{self.total:g} ({self.progress / self.total:.0%})"
        return visible(f"{done} · {self.message}" if self.message else done)


ProgressSink = Callable[[McpProgress], None]


@dataclass
class ClientFeatures:
    """What one conversation's servers may ask of decode, and where their progress goes.

    The front end fills in `ask` (the Decision Channel; None: headless), `on_progress` and the
    `sampling_model`; the handlers read them when a server asks, so they may be set late.
    """

    roots: tuple[Path, ...] = ()
    ask: AskUser | None = None
    sampling_model: Any = None
    sampling: SamplingPolicy = "ask"
    on_progress: ProgressSink | None = None
    _calls: dict[str, list[tuple[str, str]]] = field(default_factory=dict, repr=False)

    def attach(self, client: Client[Any], server: str) -> None:
        """Declare roots, sampling and elicitation on `client` (the server `server`'s connection)."""
        client.set_roots([root.resolve().as_uri() for root in self.roots])
        client.set_sampling_callback(self._sampling(server))
        client.set_elicitation_callback(self._elicitation(server))

    @contextlib.contextmanager
    def calling(self, server: str, call_id: str, tool: str) -> Generator[None]:
        """While a call of `server` runs, its progress notifications are this call's."""
        calls = self._calls.setdefault(server, [])
        calls.append((call_id, tool))
        try:
            yield
        finally:
            calls.remove((call_id, tool))

    def progress_handler(self, server: str) -> ProgressFnT:
        """The connection's progress handler: to the calls of `server` running now (one, nearly always)."""

        async def progressed(progress: float, total: float | None, message: str | None) -> None:
            if self.on_progress is None:
                return
            for call_id, tool in list(self._calls.get(server, ())):
                self.on_progress(McpProgress(call_id, tool, progress, total, message))

        return progressed

    def _sampling(self, server: str) -> Callable[..., Any]:
        async def sample(messages: list[Any], params: Any, context: Any) -> Any:
            from pydantic_ai.mcp import _build_sampling_handler

            prompt = _request_text(messages, params)
            refusal = await self._sampling_refusal(server, prompt)
            if refusal is not None:
                logger.warning("MCP server %s asked decode's model: refused (%s)", visible(server), refusal)
                raise RuntimeError(f"sampling refused by decode: {refusal}")
            logger.warning("MCP server %s asked decode's model: %s", visible(server), visible(_short(prompt, SHOWN)))
            answered = _build_sampling_handler(self.sampling_model)(messages, params, context)
            return await answered if inspect.isawaitable(answered) else answered

        return sample

    async def _sampling_refusal(self, server: str, prompt: str) -> str | None:
        """Why this sampling request may not run, or None when it may."""
        if self.sampling_model is None:
            return "no model to sample from"
        if self.sampling == "deny":
            return "mcp_sampling is deny"
        if self.sampling == "allow":
            return None
        if self.ask is None:
            return "no one to ask in a headless run; set DECODE_MCP_SAMPLING=allow to allow it"
        question = f"MCP server {visible(server)} asks to use decode's model for: {visible(_short(prompt, SHOWN))}"
        answer = await self.ask(question, [YES, NO])
        return None if answer == YES else "the user said no"

    def _elicitation(self, server: str) -> Callable[..., Any]:
        async def elicit(message: str, response_type: Any, params: Any, context: Any) -> Any:
            from fastmcp.client.elicitation import ElicitResult

            schema = getattr(params, "requested_schema", None) or {}
            fields = list(schema.get("properties", {}))
            if self.ask is None:
                logger.warning(
                    "MCP server %s asked the user (%s): declined, no one to ask in a headless run",
                    visible(server), visible(_short(message)),
                )  # fmt: skip
                return ElicitResult(action=DECLINE)
            question = f"MCP server {visible(server)} asks: {visible(message)}"
            if fields:
                question += f" ({_fields_hint(fields)})"
            answer = await self.ask(question, [ACCEPT, DECLINE] if not fields else [DECLINE])
            if answer == DECLINE:
                return ElicitResult(action=DECLINE)
            return ElicitResult(action=ACCEPT, content=_content(answer, fields, schema))

        return elicit


def _fields_hint(fields: list[str]) -> str:
    if len(fields) == 1:
        return f"type the {fields[0]}"
    return "type a JSON object with " + ", ".join(fields)


def _content(answer: str, fields: list[str], schema: dict[str, Any]) -> dict[str, Any]:
    """The user's line as the form's content: one field takes the line (as its type), more a JSON object."""
    if not fields:
        return {}
    if len(fields) > 1:
        try:
            value = json.loads(answer)
        except ValueError:
            value = None
        return value if isinstance(value, dict) else {fields[0]: answer}
    kind = schema["properties"][fields[0]].get("type")
    value: Any = answer
    with contextlib.suppress(ValueError):
        if kind == "integer":
            value = int(answer)
        elif kind == "number":
            value = float(answer)
        elif kind == "boolean":
            value = answer.strip().lower() in ("yes", "y", "true", "1")
    return {fields[0]: value}


def _request_text(messages: list[Any], params: Any) -> str:
    """All a sampling request sends the model, its system prompt and every message (not the last
    alone): what the user says yes to must be what the model reads."""
    system = getattr(params, "system_prompt", None)
    texts = [f"[system] {system}"] if isinstance(system, str) and system else []
    for message in messages:
        text = getattr(getattr(message, "content", None), "text", None)
        texts.append(text if isinstance(text, str) else f"[{type(getattr(message, 'content', None)).__name__}]")
    return " / ".join(texts)


def _short(text: str, limit: int = 120) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else f"{line[: limit - 1]}… ({len(line) - limit + 1:,} more characters)"
