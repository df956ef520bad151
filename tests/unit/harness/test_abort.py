"""What an interrupted turn leaves in the history: every call answered, the user's note last."""

from pydantic_ai.messages import (
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)

from decode.harness.abort import INTERRUPTED_NOTE, INTERRUPTED_RESULT, close_interrupted_turn, orphan_calls

PROMPT = ModelRequest(parts=[UserPromptPart("fix the build")])
CALLS = ModelResponse(
    parts=[
        TextPart("Two things at once."),
        ToolCallPart("bash", {"command": "make"}, tool_call_id="make"),
        ToolCallPart("read", {"path": "Makefile"}, tool_call_id="read"),
    ]
)


def parts(request: object) -> list[tuple[str, str]]:
    assert isinstance(request, ModelRequest)
    return [(part.part_kind, getattr(part, "tool_call_id", None) or str(part.content)) for part in request.parts]


def test_interrupted_while_tools_ran_keeps_the_finished_result_and_closes_the_rest() -> None:
    read = ToolReturnPart("read", "all: build", tool_call_id="read")
    interrupted = ModelRequest(parts=[read], state="interrupted")  # as pydantic-ai leaves it
    assert [call.tool_call_id for call in orphan_calls([PROMPT, CALLS, interrupted])] == ["make"]

    closed = close_interrupted_turn([PROMPT, CALLS, interrupted])

    assert closed[:2] == [PROMPT, CALLS]
    assert parts(closed[2]) == [("tool-return", "read"), ("tool-return", "make"), ("user-prompt", INTERRUPTED_NOTE)]
    synthetic = closed[2].parts[1]
    assert isinstance(synthetic, ToolReturnPart)
    assert (synthetic.tool_name, synthetic.content, synthetic.outcome) == ("bash", INTERRUPTED_RESULT, "interrupted")
    assert orphan_calls(closed) == []


def test_interrupted_before_any_tool_finished() -> None:
    closed = close_interrupted_turn([PROMPT, CALLS, ModelRequest(parts=[], state="interrupted")])

    assert parts(closed[2]) == [("tool-return", "make"), ("tool-return", "read"), ("user-prompt", INTERRUPTED_NOTE)]


def test_interrupted_while_the_model_was_talking_keeps_what_it_said() -> None:
    partial = ModelResponse(parts=[TextPart("I think the probl")], state="interrupted")

    closed = close_interrupted_turn([PROMPT, partial])

    assert closed[:2] == [PROMPT, partial]
    assert parts(closed[2]) == [("user-prompt", INTERRUPTED_NOTE)]


def test_interrupted_before_the_model_answered_adds_the_note_to_the_prompt() -> None:
    closed = close_interrupted_turn([PROMPT])

    assert len(closed) == 1
    assert parts(closed[0]) == [("user-prompt", "fix the build"), ("user-prompt", INTERRUPTED_NOTE)]
    assert parts(PROMPT) == [("user-prompt", "fix the build")]  # the original is not changed


def test_a_complete_history_has_no_orphans() -> None:
    answered = ModelRequest(
        parts=[ToolReturnPart("bash", "ok", tool_call_id="make"), ToolReturnPart("read", "x", tool_call_id="read")]
    )
    assert orphan_calls([PROMPT, CALLS, answered, ModelResponse(parts=[TextPart("Fixed.")])]) == []
