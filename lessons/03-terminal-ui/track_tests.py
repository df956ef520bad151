"""Lesson 03's build-along track: streamed Markdown in blocks, the tool line, slash commands.

`make lesson-check N=03` runs these against your copy (`make lesson-start N=03`); each test's first
docstring line is the behaviour it reports.
"""

from decode.entities.tool_calls import ToolCall, ToolResult
from decode.tui.commands import CommandRegistry
from decode.tui.markdown_blocks import split_blocks
from decode.tui.tool_lines import tool_line


def test_a_blank_line_finishes_a_block() -> None:
    """Streamed Markdown is finished up to its last blank line; the rest is still being written."""
    assert split_blocks("# Title\n\nsome text\nmore") == ("# Title\n\n", "some text\nmore")
    assert split_blocks("no newline yet") == ("", "no newline yet")


def test_a_code_fence_is_one_block_until_it_closes() -> None:
    """A blank line inside a code fence does not finish a block; the closing fence does."""
    assert split_blocks("```py\nx = 1\n\ny = 2\n") == ("", "```py\nx = 1\n\ny = 2\n")
    assert split_blocks("```py\nx = 1\n\n```\nafter") == ("```py\nx = 1\n\n```\n", "after")


def test_a_finished_tool_call_is_one_line_with_its_outcome() -> None:
    """A finished tool call shows as one line: ✓, the call, what it came to, its time."""
    call = ToolCall(id="1", name="read", args={"path": "a.txt"})
    result = ToolResult(call_id="1", name="read", content="hello\nworld", is_error=False, duration_s=0.2)
    assert tool_line(call, result).plain == "✓ read(a.txt) · 2 lines · 0.2s"


def test_a_failed_tool_call_is_marked_and_says_why() -> None:
    """A failed tool call is marked ✗ and says why."""
    call = ToolCall(id="1", name="read", args={"path": "a.txt"})
    result = ToolResult(call_id="1", name="read", content="no such file", is_error=True, duration_s=1.5)
    assert tool_line(call, result).plain == "✗ read(a.txt) · no such file · 1.5s"


def test_a_slash_line_is_a_command_and_anything_else_a_prompt() -> None:
    """'/name argument' parses to the command and its argument; any other line is a prompt."""
    registry = CommandRegistry()

    @registry.command("model", "switch the model", argument="MODEL", aliases=("m",))
    async def model(repl: object, argument: str) -> None: ...

    invocation = registry.parse("  /m  openrouter:x ")
    assert invocation is not None
    assert (invocation.command and invocation.command.name, invocation.name, invocation.argument) == (
        "model",
        "m",
        "openrouter:x",
    )
    assert registry.parse("hello /model") is None
    unknown = registry.parse("/nosuch")
    assert unknown is not None
    assert unknown.command is None
