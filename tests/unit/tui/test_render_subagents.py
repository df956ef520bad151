"""The Renderer and subagents: one live line per running child, under the `agent` call that runs it."""

import io

from rich.console import Console

from decode.entities.events import SubagentProgress, ToolCallFinished, ToolCallStarted
from decode.entities.tool_calls import ToolCall, ToolResult
from decode.tui.render import Renderer


def renderer() -> Renderer:
    return Renderer(Console(file=io.StringIO(), width=100, force_terminal=False, color_system=None))


def spawn(call_id: str, prompt: str) -> ToolCallStarted:
    return ToolCallStarted(call=ToolCall(id=call_id, name="agent", args={"prompt": prompt, "agent": "explore"}))


def test_each_running_child_has_one_line_that_its_latest_progress_replaces() -> None:
    view = renderer()
    view.event(spawn("a", "Find the tests"))
    view.event(spawn("b", "Find the docs"))
    view.event(SubagentProgress(call_id="a", agent_id="explore-1", agent="explore", description="tests"))
    view.event(
        SubagentProgress(
            call_id="a",
            agent_id="explore-1",
            agent="explore",
            description="tests",
            last_tool="grep(def test_)",
            requests=2,
        )
    )
    view.event(
        SubagentProgress(call_id="b", agent_id="explore-2", agent="explore", description="docs", last_tool="glob(*.md)")
    )

    live = view.live().splitlines()

    assert [line for line in live if "⋮" in line] == [
        "  ⋮ explore · tests · grep(def test_) · 2 requests",
        "  ⋮ explore · docs · glob(*.md) · 0 requests",
    ]


def test_the_line_goes_with_its_call_and_progress_of_no_running_call_is_ignored() -> None:
    view = renderer()
    view.event(spawn("a", "Find the tests"))
    view.event(SubagentProgress(call_id="a", agent_id="explore-1", agent="explore", description="tests"))
    view.event(SubagentProgress(call_id="zzz", agent_id="explore-9", agent="explore", description="late"))

    view.event(ToolCallFinished(result=ToolResult(call_id="a", name="agent", content="[subagent explore-1]\nfound")))

    assert "⋮" not in view.live()


def test_a_finished_subagent_shows_its_description_and_its_calls_folded_under() -> None:
    view = renderer()
    call = ToolCall(id="a", name="agent", args={"prompt": "Find the tests", "agent": "explore", "description": "tests"})
    view.event(ToolCallStarted(call=call))
    base = {"call_id": "a", "agent_id": "explore-1a2b3c4d", "agent": "explore", "description": "tests"}
    view.event(SubagentProgress(**base))
    for tools, last in enumerate(["glob(tests/**/*.py)", "grep(def test_)", "grep(def test_)", "read(t.py)"], 1):
        view.event(SubagentProgress(**base, last_tool=last, tools=tools))
        view.event(SubagentProgress(**base, last_tool=last, tools=tools, requests=tools))  # no new call
    report = "[subagent explore-1a2b3c4d: 5 requests, 2.1 s]\nThe tests are in tests/."
    view.event(ToolCallFinished(result=ToolResult(call_id="a", name="agent", content=report)))

    lines = [line.rstrip() for line in view.console.file.getvalue().splitlines()]  # type: ignore[attr-defined]
    assert lines[0] == "✓ agent(Find the tests) · explore · tests · 4 tool calls · 5 requests · 0.0s"
    assert lines[1:] == ["  ⎿ glob(tests/**/*.py)", "  ⎿ grep(def test_)", "  ⎿ grep(def test_)", "  ⎿ read(t.py)"]
    assert view.calls[-1].folded == ("glob(tests/**/*.py)", "grep(def test_)", "grep(def test_)", "read(t.py)")


def test_a_subagent_stopped_early_is_marked_failed() -> None:
    view = renderer()
    view.event(spawn("a", "Find the tests"))
    report = "[subagent explore-1a2b3c4d: 9 requests, 60.0 s; stopped at its time cap (60 s) before it finished]\n…"
    view.event(ToolCallFinished(result=ToolResult(call_id="a", name="agent", content=report)))
    first = view.console.file.getvalue().splitlines()[0]  # type: ignore[attr-defined]
    assert first.startswith("✗ agent(Find the tests) · explore · 9 requests · stopped early")
