"""The Renderer: events in, what the user reads out (a Rich console writing into a string)."""

import io
from pathlib import Path

from rich.console import Console

from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.entities.events import (
    Notice,
    TextDelta,
    ThinkingDelta,
    ToolCallFinished,
    ToolCallStarted,
    ToolOutputDelta,
    TurnFinished,
)
from decode.entities.tool_calls import ToolCall, ToolResult
from decode.entities.usage import Usage
from decode.models.script import ScriptedModel, ScriptedResponse, ScriptedToolCall
from decode.processes.local import LocalExecutor
from decode.tools.catalog import default_tools
from decode.tui.render import Renderer


def make_renderer(*, colour: bool = False, width: int = 80) -> tuple[Renderer, io.StringIO]:
    file = io.StringIO()
    console = Console(file=file, width=width, force_terminal=colour, color_system="standard" if colour else None)
    return Renderer(console), file


def lines(file: io.StringIO) -> list[str]:
    return [line.rstrip() for line in file.getvalue().splitlines()]


CALL = ToolCall(id="c1", name="bash", args={"command": "pytest -q", "timeout": 60})


# -- the answer ----------------------------------------------------------------------------------


def test_answer_text_is_printed_as_markdown_once_each_block_is_finished() -> None:
    renderer, file = make_renderer()
    renderer.event(TextDelta(text="# Plan\n\nFirst I will **read** the fi"))
    assert "Plan" in file.getvalue()
    assert "First I will" not in file.getvalue()  # unfinished: only in the live area
    assert "First I will" in renderer.live()
    assert "**" not in renderer.live()  # the live area renders Markdown too

    renderer.event(TextDelta(text="le.\n\nThen"))
    assert "First I will read the file." in file.getvalue()
    renderer.event(TurnFinished(output="…", usage=Usage()))
    assert lines(file).count("Then") == 1
    assert "# Plan" not in file.getvalue()
    assert renderer.live() == ""


def test_a_code_block_is_printed_when_its_fence_closes() -> None:
    renderer, file = make_renderer()
    renderer.event(TextDelta(text="```python\ndef f():\n\n    return 1\n"))
    assert "def f" not in file.getvalue()
    assert "def f" in renderer.live()
    renderer.event(TextDelta(text="```\n"))
    assert "def f():" in file.getvalue()
    assert "```" not in file.getvalue()


def test_a_long_unfinished_block_shows_only_its_tail_in_the_live_area() -> None:
    renderer, _ = make_renderer()
    renderer.event(TextDelta(text="```\n" + "".join(f"line {n}\n" for n in range(100))))
    live = renderer.live()
    assert "line 99" in live
    assert "line 10\n" not in live
    assert len(live.splitlines()) <= renderer.live_lines


def test_an_answer_that_did_not_stream_is_printed_at_the_end() -> None:
    renderer, file = make_renderer()
    renderer.event(TurnFinished(output="The whole answer.", usage=Usage()))
    assert "The whole answer." in file.getvalue()


def test_a_streamed_answer_is_not_printed_twice_at_the_end() -> None:
    renderer, file = make_renderer()
    renderer.event(TextDelta(text="Once."))
    renderer.event(TurnFinished(output="Once.", usage=Usage()))
    assert file.getvalue().count("Once.") == 1


# -- thinking, notices, errors -------------------------------------------------------------------


def test_thinking_is_dimmed_and_kept_apart_from_the_answer() -> None:
    renderer, file = make_renderer(colour=True)
    renderer.event(ThinkingDelta(text="The user wants a summary."))
    renderer.event(TextDelta(text="Here it is."))
    renderer.event(TurnFinished(output="Here it is.", usage=Usage()))
    output = file.getvalue()
    assert "\x1b[2;3mThe user wants a summary." in output  # dim italic
    assert output.index("The user wants") < output.index("Here it is.")


def test_notices_and_errors_have_their_own_styles() -> None:
    renderer, file = make_renderer(colour=True)
    renderer.event(Notice(level="warning", message="retrying"))
    renderer.error("the model is down")
    output = file.getvalue()
    assert "\x1b[33mretrying" in output  # yellow
    assert "\x1b[1;31merror: the model is down" in output  # bold red


def test_the_users_prompt_is_echoed_with_every_line() -> None:
    renderer, file = make_renderer()
    renderer.user("fix the bug\nin parser.py")
    assert lines(file) == ["❯ fix the bug", "  in parser.py"]


# -- tool calls ----------------------------------------------------------------------------------


def test_a_running_tool_is_live_and_its_finished_line_is_compact() -> None:
    renderer, file = make_renderer()
    renderer.event(TextDelta(text="Running the tests."))
    renderer.event(ToolCallStarted(call=CALL))
    assert "Running the tests." in file.getvalue()  # text before a tool call is finished by it
    assert "bash(pytest -q)" in renderer.live()
    assert "bash" not in file.getvalue()

    renderer.event(ToolOutputDelta(call_id="c1", text="collected 3 items\n...\n"))
    assert "│ collected 3 items" in renderer.live()

    result = ToolResult(call_id="c1", name="bash", content="exit code: 0\n3 passed", duration_s=1.24)
    renderer.event(ToolCallFinished(result=result))
    # The command's own lines are counted and the last ones stay under the line (`command_view.py`).
    assert lines(file)[-3:] == ["✓ bash(pytest -q) · exit 0 · 2 lines · 1.2s", "  │ collected 3 items", "  │ ..."]
    assert renderer.live() == ""


def test_a_failed_tool_shows_the_first_line_of_its_error() -> None:
    renderer, file = make_renderer()
    renderer.event(ToolCallStarted(call=ToolCall(id="c2", name="read", args={"path": "nope.txt"})))
    error = ToolResult(call_id="c2", name="read", content="nope.txt does not exist\nFix it.", is_error=True)
    renderer.event(ToolCallFinished(result=error))
    assert lines(file)[-3:] == [
        "✗ read(nope.txt) · nope.txt does not exist · 0.0s",
        "  │ nope.txt does not exist",  # the whole error under its line, nothing cut
        "  │ Fix it.",
    ]


def test_tools_still_running_when_a_turn_ends_are_marked_stopped() -> None:
    renderer, file = make_renderer()
    renderer.event(ToolCallStarted(call=CALL))
    renderer.end_turn(interrupted=True)
    assert lines(file)[-2:] == ["✗ bash(pytest -q) · stopped", "interrupted"]
    assert renderer.live() == ""


# -- a real scripted run, end to end -------------------------------------------------------------


async def test_a_scripted_run_renders_as_a_user_reads_it(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("buy milk\n")
    model = ScriptedModel(
        [
            ScriptedResponse(
                text="Let me read it.", tool_calls=[ScriptedToolCall(name="read", args={"path": "notes.txt"})]
            ),
            ScriptedResponse(text="Your notes say:\n\n- buy milk"),
        ]
    )
    loop = AgentLoop(
        build_agent(model, tools=default_tools()),
        AgentDeps(LocalExecutor(tmp_path), Settings(_env_file=None), harness_home=tmp_path),
    )
    renderer, file = make_renderer()
    renderer.user("what is in my notes?")
    async for event in loop.run_turn("what is in my notes?"):
        renderer.event(event)
    shown = [line for line in lines(file) if line]
    assert shown[0] == "❯ what is in my notes?"
    assert shown[1] == "Let me read it."
    assert shown[2].startswith("✓ read(notes.txt) · ")
    assert shown[3:] == ["Your notes say:", " • buy milk"]


def test_escape_sequences_in_what_decode_did_not_write_never_reach_the_terminal() -> None:
    renderer, file = make_renderer(colour=True)
    title, clipboard = "\x1b]0;owned\x07", "\x1b]52;c;cm0gLXJmIH4=\x07"
    call = ToolCall(id="c1", name="read", args={"path": f"notes{title}.txt"})
    renderer.event(TextDelta(text=f"Here it is {title}\n\n"))
    renderer.event(ToolCallStarted(call=call))
    renderer.event(ToolOutputDelta(call_id="c1", stream="stdout", text=f"{clipboard}line\n"))
    live = renderer.live()
    renderer.event(
        ToolCallFinished(result=ToolResult(call_id="c1", name="read", content=f"{clipboard}", is_error=True))
    )
    renderer.notice(f"skill skipped: {title}")
    renderer.event(TurnFinished(output="done", usage=Usage()))
    out = file.getvalue() + live
    assert "\x1b]" not in out
    assert "\x07" not in out
    assert "␛]0;owned␇" in out  # shown, not obeyed
    assert "\x1b[" in file.getvalue()  # decode's own colours still reach it
