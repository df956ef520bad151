"""Which blocks of an Anthropic request the history marks go on (ADR-0101): never the Turn Facts."""

from typing import Any

from decode.entities.turn_facts import HEADER
from decode.models.anthropic_breakpoints import history_ends


def text(value: str) -> dict[str, Any]:
    return {"type": "text", "text": value}


def test_without_turn_facts_nothing_is_marked() -> None:
    assert history_ends([{"role": "user", "content": [text("hi")]}]) == []


def test_the_first_request_marks_the_prompt_before_the_facts() -> None:
    prompt = text("hi")
    assert history_ends([{"role": "user", "content": [prompt, text(HEADER + "\ntoday")]}]) == [prompt]


def test_a_later_request_marks_the_previous_end_and_the_newest_result_in_order() -> None:
    prompt, result = text("shout"), {"type": "tool_result", "tool_use_id": "t", "content": "HI!"}
    messages: list[Any] = [
        {"role": "user", "content": [prompt]},
        {"role": "assistant", "content": [{"type": "tool_use", "id": "t", "name": "shout", "input": {}}]},
        {"role": "user", "content": [result, text(HEADER + "\ntoday")]},
    ]

    assert history_ends(messages) == [prompt, result]
