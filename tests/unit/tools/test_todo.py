"""`todo_write`: the whole list replaced on each call, checked, reported by the loop, shown to the model again."""

import json
from collections.abc import AsyncIterator
from pathlib import Path

from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    RetryPromptPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel

from decode.agent.factory import build_agent
from decode.agent.facts import facts_of
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.entities.events import TodosUpdated
from decode.entities.todos import Todo, TodoStatus
from decode.entities.tools import ToolKind
from decode.permissions.gate import PermissionGate
from decode.permissions.types import Decision, Mode
from decode.processes.local import LocalExecutor
from decode.tools.todo import TODO_WRITE

STEPS = [{"content": "read the test", "status": "completed"}, {"content": "fix it", "status": "in_progress"}]


class CallsThenAnswers:
    """Streams a todo_write call per list given, then an answer; keeps the instructions of each request."""

    def __init__(self, *calls: list[dict]) -> None:
        self.pending = list(calls)
        self.seen: list[str] = []

    async def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str | DeltaToolCalls]:
        self.seen.append(facts_of(messages[-1]))
        if self.pending:
            args = json.dumps({"todos": self.pending.pop(0)})
            yield {0: DeltaToolCall(name="todo_write", json_args=args, tool_call_id=f"call-{len(self.seen)}")}
        else:
            yield "done"


calls_then_answers = CallsThenAnswers


def make_loop(tmp_path: Path, model: CallsThenAnswers) -> AgentLoop:
    deps = AgentDeps(LocalExecutor(tmp_path), Settings(), harness_home=tmp_path)
    return AgentLoop(build_agent(FunctionModel(stream_function=model), tools=[TODO_WRITE]), deps)


def replies(messages: list[ModelMessage]) -> list[ToolReturnPart | RetryPromptPart]:
    return [
        p
        for m in messages
        if isinstance(m, ModelRequest)
        for p in m.parts
        if isinstance(p, ToolReturnPart | RetryPromptPart)
    ]


async def test_the_list_is_replaced_whole_and_each_change_is_an_event(tmp_path: Path) -> None:
    loop = make_loop(tmp_path, calls_then_answers(STEPS, [{"content": "fix it", "status": "completed"}]))

    events = [event async for event in loop.run_turn("fix the test")]

    updates = [event.todos for event in events if isinstance(event, TodosUpdated)]
    assert updates == [
        [
            Todo(content="read the test", status=TodoStatus.COMPLETED),
            Todo(content="fix it", status=TodoStatus.IN_PROGRESS),
        ],
        [Todo(content="fix it", status=TodoStatus.COMPLETED)],
    ]
    assert loop.deps.todos == updates[-1]
    first = replies(loop.history)[0]
    assert isinstance(first, ToolReturnPart)
    assert first.content == "To-do list updated (1/2 done · now: fix it):\n☑ read the test\n◼ fix it"


async def test_the_same_list_again_is_no_event(tmp_path: Path) -> None:
    loop = make_loop(tmp_path, calls_then_answers(STEPS, STEPS))
    events = [event async for event in loop.run_turn("go")]
    assert sum(isinstance(event, TodosUpdated) for event in events) == 1


async def test_two_steps_in_progress_is_a_retry_and_the_list_stays(tmp_path: Path) -> None:
    both = [{"content": "a", "status": "in_progress"}, {"content": "b", "status": "in_progress"}]
    loop = make_loop(tmp_path, calls_then_answers(both))

    events = [event async for event in loop.run_turn("go")]

    retry = replies(loop.history)[0]
    assert isinstance(retry, RetryPromptPart)
    assert "keep exactly one in_progress" in retry.model_response()
    assert loop.deps.todos == []
    assert not any(isinstance(event, TodosUpdated) for event in events)


async def test_a_bad_status_is_a_retry_naming_the_choices(tmp_path: Path) -> None:
    loop = make_loop(tmp_path, calls_then_answers([{"content": "a", "status": "doing"}]))
    [event async for event in loop.run_turn("go")]
    retry = replies(loop.history)[0]
    assert isinstance(retry, RetryPromptPart)
    assert "'pending', 'in_progress' or 'completed'" in retry.model_response()


async def test_the_model_sees_the_list_in_the_facts_of_the_next_request(tmp_path: Path) -> None:
    model = calls_then_answers(STEPS)
    loop = make_loop(tmp_path, model)
    [event async for event in loop.run_turn("go")]
    before, after = model.seen
    assert "to-do list" not in before
    assert "Your to-do list (1/2 done · now: fix it; update it with todo_write):\n☑ read the test\n◼ fix it" in after


async def test_an_empty_list_clears_it(tmp_path: Path) -> None:
    loop = make_loop(tmp_path, calls_then_answers(STEPS, []))
    events = [event async for event in loop.run_turn("go")]
    assert [event.todos for event in events if isinstance(event, TodosUpdated)][-1] == []


async def test_todo_write_never_asks_in_any_mode(tmp_path: Path) -> None:
    assert TODO_WRITE.traits.kind is ToolKind.SIDE_EFFECT_FREE
    for mode in Mode:
        gate = PermissionGate(mode=mode, workspace=tmp_path, home=tmp_path)
        assert (await gate.check("todo_write", {"todos": STEPS}, TODO_WRITE.traits)).decision is Decision.ALLOW
