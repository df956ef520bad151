"""Turn Facts: what can change during a session travels in the newest request, not in the instructions.

A provider serves a request's prefix from its prompt cache when it is byte-identical to the prefix
of an earlier request: the instructions, the tool definitions, then the history. So decode keeps the
instructions fixed for a session (they change only when the user changes the agent, the mode or the
tools) and sends the facts that change from one request to the next (the date, the git status, the
memory files, the skills, the To-do List) after the history, in the newest request.

`TurnFacts` is a pydantic-ai capability. Just before each model request it reads the facts
(functions of the run context, like dynamic instructions) and adds them, as one user part, to a copy
of the newest request. Only the model sees the copy: the history the loop keeps and the Session Log
never hold the facts, so every earlier request stays byte for byte as it was sent, and the next
request repeats it as its prefix (ADR-0101).
"""

import inspect
import re
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from pydantic_ai import RunContext
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.capabilities.abstract import WrapModelRequestHandler
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, UserPromptPart
from pydantic_ai.models import ModelRequestContext

from decode.entities.deps import AgentDeps
from decode.entities.turn_facts import FOOTER, HEADER

Fact = Callable[[RunContext[AgentDeps]], str | Awaitable[str]]
"""A fact is read like a dynamic instruction: a function of the run context; "" says nothing."""

_FENCE = re.compile(r"<(\s*/?\s*turn-facts)", re.IGNORECASE)
"""A fence tag inside a fact: a branch name, a file name or a note a repository wrote can hold one."""


def _fenced(text: str) -> str:
    """`text` unable to open or close the facts: so nothing after it can pass for the user's words."""
    return _FENCE.sub("\u2039\\1", text)  # `‹/turn-facts>`: still readable, no longer the tag


async def read_facts(facts: Sequence[Fact], ctx: RunContext[AgentDeps]) -> str:
    """The facts as one text, in order (empty ones left out); "" when none has anything to say."""
    texts = []
    for fact in facts:
        text = fact(ctx)
        if inspect.isawaitable(text):
            text = await text
        if text.strip():
            texts.append(_fenced(text.strip()))
    return "\n\n".join([HEADER, *texts, FOOTER]) if texts else ""


def with_facts(messages: Sequence[ModelMessage], text: str) -> list[ModelMessage]:
    """`messages` with `text` added to a copy of the newest request (the originals are left as they are)."""
    *earlier, newest = messages
    if not isinstance(newest, ModelRequest):  # pydantic-ai always ends on a request; nothing to add to otherwise
        return list(messages)
    return [*earlier, replace(newest, parts=[*newest.parts, UserPromptPart(text)])]


@dataclass
class TurnFacts(AbstractCapability[AgentDeps]):
    """Adds the facts to what the model is sent for each request, and to nothing that is kept."""

    facts: Sequence[Fact]

    @classmethod
    def get_serialization_name(cls) -> str | None:
        return None  # built in code, never from an agent spec file

    async def wrap_model_request(
        self,
        ctx: RunContext[AgentDeps],
        *,
        request_context: ModelRequestContext,
        handler: WrapModelRequestHandler,
    ) -> ModelResponse:
        text = await read_facts(self.facts, ctx)
        if text:
            request_context.messages = with_facts(request_context.messages, text)
        return await handler(request_context)


def is_facts(part: object) -> bool:
    """Whether `part` (of a request sent to the model) is the Turn Facts, not something the user wrote."""
    return isinstance(part, UserPromptPart) and isinstance(part.content, str) and part.content.startswith(HEADER)


def facts_of(request: Any) -> str:
    """The facts a request sent to the model carries ("" if none): for tests and lessons."""
    return next((part.content for part in getattr(request, "parts", ()) if is_facts(part)), "")
