"""Reading a tool's outcome as scripts see it: a bash command's exit code and output, a refusal."""

import pytest

from decode.entities.tool_calls import ToolResult
from decode.runtime.dialect import command_outcome, dialect_for, failed_command, refused


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("exit code: 0\nstdout:\na\nb\nstderr: (empty)", (0, "a\nb\n")),
        ("exit code: 2\nstdout: (empty)\nstderr:\nno such file", (2, "no such file\n")),
        ("exit code: 0 (processes it left running in the background were stopped when it ended)\nstdout: (empty)"
         "\nstderr: (empty)", (0, "")),
        ("killed after 5 s (timeout), with every process it started\nstdout:\nslow\nstderr: (empty)", (None, "slow\n")),
        ("Could not run the command: No such file.", (None, "Could not run the command: No such file.")),
    ],
)  # fmt: skip
def test_command_outcome(content: str, expected: tuple[int | None, str]) -> None:
    assert command_outcome(content) == expected


def test_failed_commands_and_refusals() -> None:
    assert failed_command(ToolResult(call_id="1", name="bash", content="exit code: 1\nstdout: (empty)"))
    assert not failed_command(ToolResult(call_id="1", name="bash", content="exit code: 0\nstdout: (empty)"))
    assert not failed_command(ToolResult(call_id="1", name="read", content="exit code: 1"))
    assert refused(ToolResult(call_id="1", name="bash", content="Permission needed (…)", is_error=True))
    assert not refused(ToolResult(call_id="1", name="bash", content="Permission needed (…)"))


def test_each_format_speaks_its_tools_vocabulary() -> None:
    assert type(dialect_for("stream-json")).__name__ == "ClaudeMessages"
    assert type(dialect_for("codex-json")).__name__ == "CodexEvents"
    assert dialect_for("json") is None
    assert dialect_for("text") is None
