"""A harness on a real Agent Loop whose model is played by the test (pydantic-ai's FunctionModel).

`StrictModel` answers each request with the next of the test's `Step`s and records the messages it
was sent. Like a provider, it rejects a conversation with a tool call that has no result (HTTP 400).
A step may wait for the test (`wait`) before answering: a slow model, without timing.
"""

import asyncio
import functools
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai import RunContext
from pydantic_ai.exceptions import ModelHTTPError
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, RetryPromptPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, FunctionModel

from decode.agent.factory import build_agent
from decode.agent.facts import is_facts
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits
from decode.harness.runner import TurnEnded, TurnRunner
from decode.hooks.dispatch import Hooks
from decode.hooks.tools import ToolHooks, pre_tool_use
from decode.permissions.gate import PermissionGate
from decode.permissions.hook import ApproveCallback, PermissionHook
from decode.processes.local import LocalExecutor
from decode.tools.catalog import default_tools

WAIT_S = 20.0


@dataclass
class Step:
    """One model response: text and/or tool calls `(name, args)`, after `wait` is set (if given)."""

    text: str = ""
    calls: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    wait: asyncio.Event | None = None


def orphans(messages: list[ModelMessage]) -> list[str]:
    """Ids of tool calls not answered before the next model response (what providers reject)."""
    missing: list[str] = []
    open_calls: set[str] = set()
    for message in messages:
        if isinstance(message, ModelResponse):
            missing.extend(open_calls)
            open_calls = {call.tool_call_id for call in message.tool_calls}
        elif isinstance(message, ModelRequest):
            open_calls -= {p.tool_call_id for p in message.parts if isinstance(p, ToolReturnPart | RetryPromptPart)}
    return [*missing, *open_calls] if messages and isinstance(messages[-1], ModelRequest) else missing


class StrictModel(FunctionModel):
    def __init__(self, steps: list[Step]) -> None:
        self.steps = steps
        self.requests: list[list[ModelMessage]] = []
        super().__init__(stream_function=self._stream, model_name="strict")

    async def _stream(self, messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[Any]:
        if missing := orphans(messages):
            raise ModelHTTPError(400, "strict", body=f"tool calls without a result: {missing}")
        self.requests.append(list(messages))
        step = self.steps[len(self.requests) - 1]
        if step.wait is not None:
            await step.wait.wait()
        if step.text:
            yield step.text
        for index, (name, args) in enumerate(step.calls):
            call_id = f"call_{len(self.requests)}_{index}"
            yield {index: DeltaToolCall(name=name, json_args=json.dumps(args), tool_call_id=call_id)}


def user_texts(messages: list[ModelMessage]) -> list[str]:
    return [
        part.content
        for message in messages
        if isinstance(message, ModelRequest)
        for part in message.parts
        if part.part_kind == "user-prompt" and isinstance(part.content, str) and not is_facts(part)
    ]


@dataclass
class Harness:
    runner: TurnRunner
    loop: AgentLoop
    model: StrictModel
    events: list[Any]
    released: asyncio.Event  # the `pause` tool returns once it is set

    def kinds(self) -> list[str]:
        return [event.kind for event in self.events]

    async def wait_until(self, condition: Callable[[], bool]) -> None:
        async with asyncio.timeout(WAIT_S):
            while True:
                if condition():
                    return
                await asyncio.sleep(0.01)

    async def ended(self, count: int = 1) -> TurnEnded:
        """Wait for the `count`-th turn to end; returns its `TurnEnded`."""
        await self.wait_until(lambda: self.kinds().count("turn_ended") >= count)
        return [event for event in self.events if event.kind == "turn_ended"][count - 1]


@pytest.fixture
async def harness(tmp_path: Path, settings: Settings) -> AsyncIterator[Callable[..., Harness]]:
    """`harness(steps, gate=None, approve=None, hooks=None)`: a Turn Runner working on a loop with the
    real tools plus `pause`; with a `gate`, the Permission Hook asks it (and `approve`) before each
    tool call; with `hooks`, those run around the turns and tool calls."""
    workers: list[asyncio.Task[None]] = []

    def start(
        steps: list[Step],
        gate: PermissionGate | None = None,
        approve: ApproveCallback | None = None,
        hooks: Hooks | None = None,
    ) -> Harness:
        released = asyncio.Event()

        async def pause(ctx: RunContext[AgentDeps]) -> str:
            """Wait until the test lets go."""
            await released.wait()
            return "resumed"

        model = StrictModel(steps)
        tools = [*default_tools(), ToolSpec("pause", pause, ToolTraits(ToolKind.READ_ONLY))]
        capabilities: list[Any] = (
            [PermissionHook(gate, harness_home=tmp_path, approve=approve)] if gate is not None else []
        )
        if hooks is not None:  # the settings' hooks, wired as the hooks step wires them
            for capability in capabilities:
                capability.pre_tool = functools.partial(pre_tool_use, hooks)
            capabilities.append(ToolHooks(hooks))
        agent = build_agent(model, tools=tools, capabilities=capabilities)
        loop = AgentLoop(agent, AgentDeps(LocalExecutor(tmp_path), settings, harness_home=tmp_path))
        loop.hooks = hooks
        events: list[Any] = []

        async def agent_loop() -> AgentLoop:
            return loop

        runner = TurnRunner(agent_loop, events.append)
        workers.append(asyncio.create_task(runner.work()))
        return Harness(runner, loop, model, events, released)

    yield start
    for worker in workers:
        worker.cancel()
    await asyncio.gather(*workers, return_exceptions=True)
