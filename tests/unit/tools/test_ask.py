"""`ask_user`: a question through the front end's callback; headless, a result saying no one can answer."""

import json
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest
from pydantic_ai.messages import ModelMessage, ModelRequest, RetryPromptPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel

from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.entities.asking import AskUser
from decode.entities.deps import AgentDeps
from decode.entities.tools import ToolKind
from decode.permissions.gate import PermissionGate
from decode.permissions.types import Decision, Mode
from decode.processes.local import LocalExecutor
from decode.tools.ask import ASK_USER, NO_USER


class CallsOnce:
    """Streams one call of `tool` with `args`, then answers."""

    def __init__(self, tool: str, args: dict) -> None:
        self.tool, self.args, self.called = tool, args, False

    async def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str | DeltaToolCalls]:
        if self.called:
            yield "done"
            return
        self.called = True
        yield {0: DeltaToolCall(name=self.tool, json_args=json.dumps(self.args), tool_call_id="call-1")}


async def reply_to(tmp_path: Path, args: dict, ask_user: AskUser | None) -> ToolReturnPart | RetryPromptPart:
    deps = AgentDeps(LocalExecutor(tmp_path), Settings(), harness_home=tmp_path, ask_user=ask_user)
    loop = AgentLoop(build_agent(FunctionModel(stream_function=CallsOnce("ask_user", args)), tools=[ASK_USER]), deps)
    [event async for event in loop.run_turn("go")]
    return next(
        part
        for message in loop.history
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart | RetryPromptPart)
    )


async def test_the_question_and_options_reach_the_front_end_and_the_answer_the_model(tmp_path: Path) -> None:
    asked: list[tuple[str, list[str]]] = []

    async def ask(question: str, options: Sequence[str]) -> str:
        asked.append((question, list(options)))
        return "postgres"

    reply = await reply_to(tmp_path, {"question": " Which database? ", "options": ["sqlite", "post\ngres"]}, ask)

    assert asked == [("Which database?", ["sqlite", "post gres"])]
    assert isinstance(reply, ToolReturnPart)
    assert reply.content == "The user answered: postgres"


async def test_headless_the_model_is_told_no_one_can_answer_and_carries_on(tmp_path: Path) -> None:
    reply = await reply_to(tmp_path, {"question": "Which database?"}, None)
    assert isinstance(reply, ToolReturnPart)  # a result, not an error
    assert reply.content == NO_USER


@pytest.mark.parametrize(
    "args",
    [
        {"question": "  "},
        {"question": "which?", "options": ["a", " "]},
        {"question": "which?", "options": list("abcdefghij")},
    ],
)
async def test_an_empty_question_or_bad_options_is_a_retry(tmp_path: Path, args: dict) -> None:
    async def never(question: str, options: Sequence[str]) -> str:
        raise AssertionError("asked")

    reply = await reply_to(tmp_path, args, never)
    assert isinstance(reply, RetryPromptPart)


async def test_ask_user_never_needs_an_approval(tmp_path: Path) -> None:
    assert ASK_USER.traits.kind is ToolKind.SIDE_EFFECT_FREE
    for mode in Mode:
        gate = PermissionGate(mode=mode, workspace=tmp_path, home=tmp_path)
        assert (await gate.check("ask_user", {"question": "?"}, ASK_USER.traits)).decision is Decision.ALLOW
