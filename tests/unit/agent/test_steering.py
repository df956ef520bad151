from pydantic_ai.messages import (
    EnqueuedMessagesEvent,
    ModelRequest,
    PartStartEvent,
    SystemPromptPart,
    TextPart,
    UserPromptPart,
)

from decode.agent.steering import delivered
from decode.entities.events import MessageDelivered


def test_a_delivered_steer_is_its_users_text() -> None:
    request = ModelRequest(parts=[SystemPromptPart("ignored"), UserPromptPart("use pnpm"), UserPromptPart("not npm")])
    event = EnqueuedMessagesEvent(enqueue_id="q1", messages=(request,))
    assert delivered(event) == MessageDelivered(message_id="q1", text="use pnpm\nnot npm")


def test_any_other_event_delivers_nothing() -> None:
    assert delivered(PartStartEvent(index=0, part=TextPart("hi"))) is None
