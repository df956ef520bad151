"""A finished command under its line: exit code, the command's own line count, its last lines, ✗ when it failed."""

import io
from pathlib import Path

from rich.console import Console

from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.entities.events import ToolCallFinished, ToolCallStarted, ToolOutputDelta
from decode.entities.tool_calls import ToolCall, ToolResult
from decode.models.script import ScriptedModel, ScriptedResponse, ScriptedToolCall
from decode.processes.local import LocalExecutor
from decode.tools.catalog import default_tools
from decode.tui.command_view import command_lines
from decode.tui.render import Renderer

CALL = ToolCall(id="b1", name="bash", args={"command": "make test"})


def make_renderer() -> tuple[Renderer, io.StringIO]:
    file = io.StringIO()
    return Renderer(Console(file=file, width=100, color_system=None)), file


def plain(file: io.StringIO) -> list[str]:
    return [line.rstrip() for line in file.getvalue().splitlines()]


def numbered(count: int) -> str:
    return "".join(f"line {n}\n" for n in range(1, count + 1))


def test_a_failing_command_is_a_cross_with_its_exit_code_and_last_lines() -> None:
    renderer, file = make_renderer()
    renderer.event(ToolCallStarted(call=CALL))
    renderer.event(ToolOutputDelta(call_id="b1", text=numbered(30)))
    renderer.event(ToolOutputDelta(call_id="b1", stream="stderr", text="error: 4 failed\n"))
    content = f"exit code: 3\nstdout:\n{numbered(30)}stderr:\nerror: 4 failed"
    renderer.event(ToolCallFinished(result=ToolResult(call_id="b1", name="bash", content=content, duration_s=2.0)))
    assert plain(file) == [
        "✗ bash(make test) · exit 3 · 31 lines · 2.0s",
        "  │ … 27 more lines (ctrl+o or /last shows all)",
        "  │ line 28",
        "  │ line 29",
        "  │ line 30",
        "  │ error: 4 failed",
    ]


def test_the_count_is_the_commands_lines_even_past_the_kept_tail() -> None:
    renderer, file = make_renderer()
    renderer.event(ToolCallStarted(call=CALL))
    for _ in range(100):  # 5,000 lines: more than the live area keeps
        renderer.event(ToolOutputDelta(call_id="b1", text=numbered(50)))
    content = "exit code: 0\nstdout:\n[…]\nstderr: (empty)"
    renderer.event(ToolCallFinished(result=ToolResult(call_id="b1", name="bash", content=content)))
    shown = plain(file)
    assert shown[0] == "✓ bash(make test) · exit 0 · 5,000 lines · 0.0s"
    assert shown[1] == "  │ … 4996 more lines (ctrl+o or /last shows all)"
    assert shown[-1] == "  │ line 50"


def test_without_a_stream_the_lines_come_from_the_result() -> None:
    assert command_lines("exit code: 1\nstdout: (empty)\nstderr:\nboom\n") == ["boom"]
    renderer, file = make_renderer()
    renderer.event(ToolCallStarted(call=CALL))
    content = "exit code: 0\nstdout:\none\ntwo\nstderr: (empty)"
    renderer.event(ToolCallFinished(result=ToolResult(call_id="b1", name="bash", content=content)))
    assert plain(file) == ["✓ bash(make test) · exit 0 · 2 lines · 0.0s", "  │ one", "  │ two"]


def test_a_timeout_is_a_failure_and_no_output_says_so() -> None:
    renderer, file = make_renderer()
    renderer.event(ToolCallStarted(call=CALL))
    content = "killed after 5 s (timeout), with every process it started\nstdout: (empty)\nstderr: (empty)"
    renderer.event(ToolCallFinished(result=ToolResult(call_id="b1", name="bash", content=content)))
    assert plain(file) == ["✗ bash(make test) · timed out · no output · 0.0s"]


async def test_a_real_command_that_exits_3(tmp_path: Path) -> None:
    command = "for n in $(seq 1 34); do echo out $n; done; echo oops >&2; exit 3"
    model = ScriptedModel(
        [
            ScriptedResponse(tool_calls=[ScriptedToolCall(name="bash", args={"command": command})]),
            ScriptedResponse(text="It failed."),
        ]
    )
    renderer, file = make_renderer()
    deps = AgentDeps(LocalExecutor(tmp_path), Settings(_env_file=None), harness_home=tmp_path)
    deps.on_tool_output = renderer.event  # as the REPL wires it
    loop = AgentLoop(build_agent(model, tools=default_tools()), deps)
    async for event in loop.run_turn("run it"):
        renderer.event(event)
    shown = plain(file)
    line = next(line for line in shown if line.startswith("✗ bash("))
    assert " · exit 3 · 35 lines · " in line  # 34 lines out, 1 line err: not the wrapper's
    assert "  │ oops" in shown or "  │ out 34" in shown
