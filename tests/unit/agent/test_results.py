"""`keep_safe`: every tool result serialisable before it joins the conversation."""

import os

from pydantic_ai.messages import RetryPromptPart, ToolReturnPart
from pydantic_core import to_json

from decode.agent.results import escaped, keep_safe

NAME = os.fsdecode(b"caf\xe9.txt")


def test_a_result_naming_a_file_that_is_not_utf8_is_spelled_with_escapes() -> None:
    part = ToolReturnPart(tool_name="glob", content=f"{NAME}\nplain.txt", tool_call_id="1")
    keep_safe(part)
    assert part.content == "caf\\xe9.txt\nplain.txt"
    assert part.outcome == "success"
    to_json(part)  # what the Session Log and the provider do with it


def test_a_failed_result_and_a_retry_are_made_safe_too() -> None:
    failed = ToolReturnPart(tool_name="read", content=f"Did you mean: {NAME}?", tool_call_id="1", outcome="failed")
    retry = RetryPromptPart(tool_name="edit", content=f"{NAME} is ambiguous", tool_call_id="2")
    keep_safe(failed)
    keep_safe(retry)
    assert failed.content == "Did you mean: caf\\xe9.txt?"
    assert retry.content == "caf\\xe9.txt is ambiguous"
    to_json(failed.model_response_str())
    to_json(retry.model_response())


def test_nested_data_is_made_safe() -> None:
    assert escaped({"files": [NAME], NAME: 1}) == {"files": ["caf\\xe9.txt"], "caf\\xe9.txt": 1}


def test_a_result_json_cannot_hold_becomes_a_failed_result_saying_so() -> None:
    part = ToolReturnPart(tool_name="mcp__x__y", content=object(), tool_call_id="1")
    keep_safe(part)
    assert part.outcome == "failed"
    assert isinstance(part.content, str)
    assert part.content.startswith("decode could not keep the result of mcp__x__y: it cannot be written as JSON (")
    to_json(part)


def test_a_safe_result_is_untouched() -> None:
    content = {"text": "café ✓", "n": 3}
    part = ToolReturnPart(tool_name="t", content=content, tool_call_id="1")
    keep_safe(part)
    assert part.content is content
