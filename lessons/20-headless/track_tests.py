"""Lesson 20's build-along track: `decode run`'s exit codes, its stream-json events, its result object.

`make lesson-check N=20` runs these against your copy (`make lesson-start N=20`); each test's first
docstring line is the behaviour it reports.
"""

import json

import pytest

from decode.agent.failures import Failure
from decode.entities import events as ev
from decode.entities.tool_calls import ToolCall, ToolResult
from decode.entities.usage import Usage
from decode.harness.runner import TurnEnded
from decode.runtime.headless import exit_code
from decode.runtime.output import RunOutput
from decode.runtime.summary import RunSummary


def test_a_run_exits_0_done_3_at_the_ceiling_and_1_failed() -> None:
    """A finished turn exits 0, one stopped by the request ceiling 3, any other failure 1."""
    assert exit_code(TurnEnded("finished")) == 0
    ceiling = Failure("the request ceiling (3) was reached", "the ceiling", at_ceiling=True)
    assert exit_code(TurnEnded("failed", failure=ceiling)) == 3
    assert exit_code(TurnEnded("failed", failure=Failure("HTTP 500", "a model request failed"))) == 1


def test_stream_json_joins_text_and_reports_tools_and_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    """stream-json writes one line per event: the text joined, the tool call and result, then the result."""
    output = RunOutput("stream-json")
    call = ToolCall(id="c1", name="read", args={"path": "a.txt"})
    for event in (
        ev.TextDelta(text="Let me "),
        ev.TextDelta(text="look."),
        ev.ToolCallStarted(call=call),
        ev.ToolCallFinished(result=ToolResult(call_id="c1", name="read", content="hi", is_error=False, duration_s=0)),
        ev.TextDelta(text="It says hi."),
        ev.TurnFinished(output="It says hi.", usage=Usage(requests=2)),
    ):
        output.event(event)
    output.finish(0)
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    lines = [line for line in lines if line["type"] not in ("system", "assistant", "user")]  # Claude Code's messages
    assert [line["type"] for line in lines] == ["text", "tool_call", "tool_result", "text", "result"]
    assert lines[0]["text"] == "Let me look."
    assert (lines[1]["name"], lines[2]["content"]) == ("read", "hi")
    assert (lines[-1]["result"], lines[-1]["num_requests"], lines[-1]["is_error"]) == ("It says hi.", 2, False)


def test_the_result_object_says_whether_and_why_the_run_failed() -> None:
    """The result object carries the exit code, is_error and the error line; a failure no one named says its code."""
    summary = RunSummary(result="partial", session_id="s1", usage=Usage(requests=1, input_tokens=5, output_tokens=2))
    done = summary.to_json(0)
    assert (done["is_error"], done["error"], done["exit_code"], done["session_id"]) == (False, None, 0, "s1")
    assert done["usage"]["input_tokens"] == 5
    assert RunSummary().to_json(3)["error"] == "exit code 3"
    summary.error = "model request failed: HTTP 500"
    assert summary.to_json(1)["error"] == "model request failed: HTTP 500"
