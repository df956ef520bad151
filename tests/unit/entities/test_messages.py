from datetime import UTC

from decode.entities.messages import ChatMessage, utc_now


def test_messages_carry_aware_utc_times() -> None:
    message = ChatMessage(role="user", text="hi")
    assert message.at.tzinfo is UTC
    assert utc_now().tzinfo is UTC


def test_message_round_trips_through_json() -> None:
    message = ChatMessage(role="assistant", text="done")
    assert ChatMessage.model_validate_json(message.model_dump_json()) == message
