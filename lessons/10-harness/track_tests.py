"""Lesson 10's build-along track: the Priority Gate routes and hands back messages; an abort keeps a
valid history.

`make lesson-check N=10` runs these against your copy (`make lesson-start N=10`); each test's first
docstring line is the behaviour it reports.
"""

from pydantic_ai import Agent
from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, ToolCallPart, ToolReturnPart, UserPromptPart
from pydantic_ai.models.test import TestModel

from decode.harness.abort import INTERRUPTED_NOTE, close_interrupted_turn
from decode.harness.priority import Message, Priority, PriorityGate


def test_a_message_with_no_running_turn_becomes_a_turn() -> None:
    """A steer sent while nothing runs becomes a turn of its own, queued."""
    gate = PriorityGate()
    routed = gate.send(Message("look at the tests", Priority.STEER))
    assert routed.priority is Priority.TURN
    assert [message.text for message in gate.pending()] == ["look at the tests"]


async def test_a_steer_goes_to_the_running_turn_and_stays_in_flight() -> None:
    """A steer sent during a turn goes to that turn's run and stays in flight until delivered."""
    gate = PriorityGate()
    async with Agent(TestModel()).iter("hello") as run:
        routed = gate.send(Message("use pytest", Priority.STEER), run)
        assert routed.enqueue_id is not None
        assert [message.text for message in gate.pending()] == ["use pytest"]
        assert gate.delivered(routed.enqueue_id) == routed
    assert gate.pending() == []


async def test_undelivered_messages_are_handed_back() -> None:
    """Messages the turn never delivered are handed back, in-flight ones first, then queued turns."""
    gate = PriorityGate()
    async with Agent(TestModel()).iter("hello") as run:
        gate.send(Message("steer me", Priority.FOLLOW_UP), run)
    gate.send(Message("next turn"))
    assert [message.text for message in gate.take_back()] == ["steer me"]
    assert [message.text for message in gate.take_back(queued_turns=True)] == ["next turn"]
    assert gate.pending() == []


def test_an_interrupted_turn_is_closed_with_results_for_its_orphan_calls() -> None:
    """An aborted turn's orphan tool calls get a result, and a note closes the turn as a request."""
    history = [
        ModelRequest(parts=[UserPromptPart("run the tests")]),
        ModelResponse(parts=[TextPart("Running."), ToolCallPart("bash", {"command": "pytest"}, tool_call_id="c1")]),
    ]
    closed = close_interrupted_turn(history)
    assert closed[:2] == history
    last = closed[-1]
    assert isinstance(last, ModelRequest)
    result, note = last.parts
    assert isinstance(result, ToolReturnPart)
    assert result.tool_call_id == "c1"
    assert isinstance(note, UserPromptPart)
    assert note.content == INTERRUPTED_NOTE


def test_a_turn_stopped_before_the_model_answered_stays_one_request() -> None:
    """A turn aborted before the model answered ends in one request: the prompt, then the note."""
    closed = close_interrupted_turn([ModelRequest(parts=[UserPromptPart("hi")])], note="stopped")
    assert len(closed) == 1
    assert [part.content for part in closed[0].parts if isinstance(part, UserPromptPart)] == ["hi", "stopped"]
