"""`exit_plan_mode`: the plan to the front end's review; approved, rejected with feedback, or headless."""

import json
from collections.abc import AsyncIterator
from pathlib import Path

from pydantic_ai.messages import ModelMessage, ModelRequest, RetryPromptPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel

from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.entities.asking import PlanReview, ReviewPlan
from decode.entities.deps import AgentDeps
from decode.processes.local import LocalExecutor
from decode.tools.plan import EXIT_PLAN_MODE, HEADLESS_PLAN, NOT_IN_PLAN

PLAN = "1. Fix `parse_range` in calc.py.\n2. Run the tests."


class CallsOnce:
    def __init__(self, args: dict) -> None:
        self.args, self.called = args, False

    async def __call__(self, messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str | DeltaToolCalls]:
        if self.called:
            yield "done"
            return
        self.called = True
        yield {0: DeltaToolCall(name="exit_plan_mode", json_args=json.dumps(self.args), tool_call_id="call-1")}


async def reply_to(tmp_path: Path, review: ReviewPlan | None, plan: str = PLAN) -> ToolReturnPart | RetryPromptPart:
    deps = AgentDeps(LocalExecutor(tmp_path), Settings(), harness_home=tmp_path, review_plan=review)
    model = FunctionModel(stream_function=CallsOnce({"plan": plan}))
    loop = AgentLoop(build_agent(model, tools=[EXIT_PLAN_MODE]), deps)
    [event async for event in loop.run_turn("go")]
    return next(
        part
        for message in loop.history
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart | RetryPromptPart)
    )


def reviewing(answer: PlanReview | None, seen: list[str]) -> ReviewPlan:
    async def review(plan: str) -> PlanReview | None:
        seen.append(plan)
        return answer

    return review


async def test_an_approved_plan_tells_the_model_the_new_mode(tmp_path: Path) -> None:
    seen: list[str] = []
    reply = await reply_to(tmp_path, reviewing(PlanReview(approved=True, mode="accept-edits"), seen))
    assert seen == [PLAN]
    assert isinstance(reply, ToolReturnPart)
    assert reply.content.startswith("The user approved the plan. The permission mode is now accept-edits")


async def test_a_rejected_plan_hands_the_feedback_to_the_model(tmp_path: Path) -> None:
    reply = await reply_to(tmp_path, reviewing(PlanReview(approved=False, feedback="use pytest -x"), []))
    assert isinstance(reply, ToolReturnPart)
    assert reply.content == (
        "The user did not approve the plan; you are still in plan mode. Their feedback: use pytest -x"
    )


async def test_headless_the_plan_is_the_answer(tmp_path: Path) -> None:
    reply = await reply_to(tmp_path, None)
    assert isinstance(reply, ToolReturnPart)
    assert reply.content == HEADLESS_PLAN


async def test_outside_plan_mode_there_is_nothing_to_approve(tmp_path: Path) -> None:
    reply = await reply_to(tmp_path, reviewing(None, []))
    assert isinstance(reply, ToolReturnPart)
    assert reply.content == NOT_IN_PLAN


async def test_an_empty_plan_is_a_retry(tmp_path: Path) -> None:
    reply = await reply_to(tmp_path, reviewing(None, []), plan="  ")
    assert isinstance(reply, RetryPromptPart)
