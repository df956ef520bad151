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
