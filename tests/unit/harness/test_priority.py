"""The Priority Gate on a real pydantic-ai run: steer, follow-up, turn, and what comes back."""

import asyncio
from typing import Any

from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from decode.harness.priority import Message, Priority, PriorityGate


def answers(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
    return ModelResponse(parts=[TextPart("ok")])


AGENT = Agent(FunctionModel(answers))


async def test_with_nothing_running_every_message_is_a_turn_in_order() -> None:
    gate = PriorityGate()
    sent = [gate.send(Message("one", Priority.STEER), None), gate.send(Message("two", Priority.FOLLOW_UP), None)]

    assert [message.priority for message in sent] == [Priority.TURN, Priority.TURN]
    assert gate.pending() == sent
    assert await gate.next_turn() == sent[0]
    assert await gate.next_turn() == sent[1]
    assert gate.pending() == []


async def test_a_running_turn_takes_steers_and_follow_ups_until_they_are_delivered() -> None:
    gate = PriorityGate()
    async with AGENT.iter("hi") as run:
        steer = gate.send(Message("use pnpm", Priority.STEER), run)
        follow_up = gate.send(Message("then test", Priority.FOLLOW_UP), run)
        queued = gate.send(Message("the /init prompt", shown="/init"), run)

        assert [message.priority for message in (steer, follow_up, queued)] == [
            Priority.STEER,
            Priority.FOLLOW_UP,
            Priority.TURN,
        ]
        assert [pending.priority for pending in run.pending_messages] == ["asap", "when_idle"]
        assert [pending.enqueue_id for pending in run.pending_messages] == [steer.enqueue_id, follow_up.enqueue_id]
        assert gate.pending() == [steer, follow_up, queued]

        assert steer.enqueue_id is not None
        assert gate.delivered(steer.enqueue_id) == steer
        assert gate.pending() == [follow_up, queued]
        async for _ in run:
            pass


async def test_a_run_that_has_ended_takes_nothing_more_and_the_message_becomes_a_turn() -> None:
    gate = PriorityGate()
    async with AGENT.iter("hi") as run:
        async for _ in run:
            pass
        late = gate.send(Message("one more thing", Priority.STEER), run)

    assert late.priority is Priority.TURN
    assert late.enqueue_id is None
    assert await asyncio.wait_for(gate.next_turn(), 1) == late


async def test_take_back_empties_what_the_model_never_got() -> None:
    gate = PriorityGate()
    async with AGENT.iter("hi") as run:
        steer = gate.send(Message("use pnpm", Priority.STEER), run)
        queued = gate.send(Message("later"), run)
        assert gate.take_back() == [steer]  # a failed turn: the queued turn still runs
        assert gate.pending() == [queued]
        gate.send(Message("again", Priority.STEER), run)
        taken: list[Any] = gate.take_back(queued_turns=True)  # an abort: everything comes back
        assert [message.text for message in taken] == ["again", "later"]
        assert gate.pending() == []
