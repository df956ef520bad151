"""CapabilitySet: decode's plain capabilities as one, each hook reaching only those that define it."""

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic_ai import Agent, RunContext
from pydantic_ai.capabilities import AbstractCapability, CapabilityOrdering, WrapModelRequestHandler
from pydantic_ai.messages import ModelMessage, ModelResponse, PartStartEvent, TextPart, ToolCallPart
from pydantic_ai.models import ModelRequestContext
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.tools import ToolDefinition
from pydantic_ai.usage import RunUsage

from decode.agent.capability_set import CapabilitySet, capability_set
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.processes.local import LocalExecutor


@dataclass
class Checks(AbstractCapability[Any]):
    """Writes down each tool call it sees before it runs, and each model request it wraps."""

    name: str
    log: list[str] = field(default_factory=list)

    @classmethod
    def get_serialization_name(cls) -> str | None:
        return None

    async def before_tool_execute(self, ctx: RunContext[Any], *, call: Any, tool_def: Any, args: Any) -> Any:
        self.log.append(f"{self.name}: before {call.tool_name}")
        return args

    async def wrap_model_request(
        self, ctx: RunContext[Any], *, request_context: ModelRequestContext, handler: WrapModelRequestHandler
    ) -> ModelResponse:
        self.log.append(f"{self.name}: request in")
        response = await handler(request_context)
        self.log.append(f"{self.name}: request out")
        return response


@dataclass
class Offers(AbstractCapability[Any]):
    """Offers only the tools named `keep`."""

    keep: str

    @classmethod
    def get_serialization_name(cls) -> str | None:
        return None

    async def prepare_tools(self, ctx: RunContext[Any], tool_defs: list[ToolDefinition]) -> list[ToolDefinition]:
        return [tool for tool in tool_defs if tool.name == self.keep]


@dataclass
class Outermost(AbstractCapability[Any]):
    """Asks pydantic-ai for a place of its own: it is left out of the set."""

    @classmethod
    def get_serialization_name(cls) -> str | None:
        return None

    def get_ordering(self) -> CapabilityOrdering:
        return CapabilityOrdering(position="outermost")


def test_the_plain_capabilities_become_one_and_the_placed_ones_stay_as_they_are() -> None:
    log: list[str] = []
    first, second, offers, placed = Checks("first", log), Checks("second", log), Offers("noop"), Outermost()

    combined = capability_set([first, placed, offers, second])

    assert isinstance(combined[0], CapabilitySet)
    assert combined[1:] == [placed]
    assert combined[0].subset("before_tool_execute").capabilities == [first, second]
    assert combined[0].subset("prepare_tools").capabilities == [offers]
    assert combined[0].subset("after_tool_execute").capabilities == []
    assert capability_set([first, placed]) == [first, placed]  # one plain capability: nothing to join


async def test_a_run_through_the_set_calls_each_hook_in_order_and_nests_the_wrappers(tmp_path: Path) -> None:
    log: list[str] = []
    offered: list[list[str]] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        offered.append([tool.name for tool in info.function_tools])
        if len(offered) == 1:
            return ModelResponse(parts=[ToolCallPart("noop", {}, tool_call_id="c1")])
        return ModelResponse(parts=[TextPart("done")])

    def noop() -> str:
        """Do nothing."""
        return "ok"

    def other() -> str:
        """Never offered."""
        return "no"

    capabilities = capability_set([Checks("first", log), Offers("noop"), Checks("second", log)])
    agent = Agent(FunctionModel(model), deps_type=AgentDeps, tools=[noop, other], capabilities=capabilities)
    deps = AgentDeps(LocalExecutor(tmp_path), Settings(), harness_home=tmp_path)

    result = await agent.run("go", deps=deps)

    assert result.output == "done"
    assert offered == [["noop"], ["noop"]]
    assert log == [
        "first: request in",
        "second: request in",
        "second: request out",
        "first: request out",
        "first: before noop",
        "second: before noop",
        "first: request in",
        "second: request in",
        "second: request out",
        "first: request out",
    ]


def test_a_set_that_wraps_no_node_and_no_request_is_skipped_by_pydantic_ai_for_them() -> None:
    # pydantic-ai asks these before it wraps each node and each request in a capability's hook.
    quiet = capability_set([Offers("noop"), Offers("other")])[0]
    assert not quiet._has_wrap_node_run
    assert not quiet._has_wrap_model_request
    assert not quiet._has_on_model_request_error
    assert not quiet._has_on_node_run_error
    wraps = capability_set([Offers("noop"), Checks("checks")])[0]
    assert wraps._has_wrap_model_request
    assert not wraps._has_wrap_node_run


async def test_a_hook_no_member_defines_passes_its_value_on(tmp_path: Path) -> None:
    quiet = capability_set([Offers("noop"), Offers("other")])[0]
    deps = AgentDeps(LocalExecutor(tmp_path), Settings(), harness_home=tmp_path)
    ctx = RunContext(deps=deps, model=FunctionModel(lambda *_: ModelResponse(parts=[])), usage=RunUsage())
    call = ToolCallPart("noop", {"a": 1}, tool_call_id="c1")
    args = {"a": 1}
    assert await quiet.before_tool_execute(ctx, call=call, tool_def=ToolDefinition(name="noop"), args=args) is args


@dataclass
class Listens(AbstractCapability[Any]):
    """Writes down the kind of each event of the run."""

    kinds: list[str] = field(default_factory=list)

    @classmethod
    def get_serialization_name(cls) -> str | None:
        return None

    async def on_event(self, ctx: RunContext[Any], *, event: Any) -> None:
        self.kinds.append(event.event_kind)


async def test_the_events_reach_a_member_that_listens_and_a_set_without_one_listens_to_none(tmp_path: Path) -> None:
    async def answer(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        yield "done"  # a run whose capabilities listen to events is streamed

    listens = Listens()
    deps = AgentDeps(LocalExecutor(tmp_path), Settings(), harness_home=tmp_path)
    model = FunctionModel(stream_function=answer)
    agent = Agent(model, deps_type=AgentDeps, capabilities=capability_set([listens, Offers("noop")]))

    await agent.run("go", deps=deps)

    assert "part_start" in listens.kinds
    quiet = capability_set([Offers("noop"), Offers("other")])[0]
    assert not quiet.has_on_event
    assert not quiet.listens_to(PartStartEvent(index=0, part=TextPart("x")))
