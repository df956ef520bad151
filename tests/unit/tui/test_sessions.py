"""The REPL side of sessions: a resumed conversation shows where the user left off."""

from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, ToolCallPart, ToolReturnPart, UserPromptPart

from decode.context.windows import SUMMARY_MARK
from decode.harness.bash_mode import bash_request
from decode.tui.sessions import earlier_turns


def test_earlier_turns_pair_each_prompt_with_its_final_answer() -> None:
    history = [
        ModelRequest(parts=[UserPromptPart("fix the test")]),
        ModelResponse(parts=[TextPart("Looking."), ToolCallPart("read", {"path": "a.py"}, tool_call_id="1")]),
        ModelRequest(parts=[ToolReturnPart("read", "code", tool_call_id="1")]),
        ModelResponse(parts=[TextPart("Fixed it.")]),
        ModelRequest(parts=[UserPromptPart("thanks")]),
        ModelResponse(parts=[TextPart("You're welcome.")]),
    ]
    assert earlier_turns(history) == ([("fix the test", "Fixed it."), ("thanks", "You're welcome.")], False)


def test_a_compaction_summary_is_not_shown_as_a_prompt() -> None:
    summary = ModelRequest(
        parts=[UserPromptPart("[The earlier conversation was compacted…]"), UserPromptPart("go on")],
        metadata={SUMMARY_MARK: {"replaced": 12, "carried": 0}},
    )
    history = [summary, ModelResponse(parts=[TextPart("Going on.")])]
    assert earlier_turns(history) == ([("go on", "Going on.")], True)


def test_a_bash_mode_command_is_shown_as_typed() -> None:
    history = [bash_request("ls", "exit code: 0"), ModelRequest(parts=[UserPromptPart("and now?")])]
    assert earlier_turns([*history, ModelResponse(parts=[TextPart("Now this.")])]) == (
        [("!ls", ""), ("and now?", "Now this.")],
        False,
    )


async def test_resuming_in_the_repl_prints_the_earlier_turns(start_repl, script) -> None:
    first = await start_repl(script([{"text": "The answer is **42**."}]))
    first.send("what is the answer?")
    await first.wait_for("The answer is 42.")
    first.send("/quit")
    assert await first.exit_code() == 0

    second = await start_repl(script([{"text": "unused"}]), resume="")
    output = await second.wait_for("resumed session")
    assert "❯ what is the answer?" in output
    assert output.index("The answer is 42.") < output.index("resumed session")
