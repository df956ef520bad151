"""A call that waits for the user: its clock stands still, and its time leaves the wait out."""

import time

from decode.entities.tool_calls import ToolResult
from decode.tui.held_clocks import HeldClocks


def test_a_wait_is_counted_while_held_and_kept_after() -> None:
    clocks = HeldClocks()
    clocks.hold({"c1"}, now=10.0)
    assert clocks.held("c1")
    assert clocks.wait("c1", 15.0) == 5.0
    clocks.hold(set(), now=20.0)  # answered
    assert not clocks.held("c1")
    assert clocks.wait("c1", 99.0) == 10.0


def test_the_result_leaves_the_wait_out_and_the_clock_is_forgotten() -> None:
    clocks = HeldClocks()
    now = time.monotonic()
    clocks.hold({"c1"}, now=now - 30)
    clocks.hold(set(), now=now - 10)  # waited 20 s
    result = clocks.without_wait(ToolResult(call_id="c1", name="bash", content="", duration_s=21.0))
    assert result.duration_s == 1.0
    assert clocks.wait("c1", now) == 0.0


def test_a_call_never_held_keeps_its_time() -> None:
    result = ToolResult(call_id="c2", name="bash", content="", duration_s=3.0)
    assert HeldClocks().without_wait(result) is result
