"""The stream-json printer over events: text coalesced, tool output cut to the cap, result last."""

import json

import pytest

from decode.entities.events import TextDelta, ToolCallFinished, ToolCallStarted, TurnFinished, UsageUpdated
from decode.entities.tool_calls import ToolCall, ToolResult
from decode.entities.usage import Usage
from decode.runtime.output import CONTENT_CAP, RunOutput, shown_answer

CLAUDE = {"system", "assistant", "user", "stream_event"}
"""Claude Code's messages, which stream-json writes beside decode's own events (test_claude_messages.py)."""


def lines(capsys: pytest.CaptureFixture[str]) -> list[dict]:
    """decode's own stream-json events on stdout."""
    seen = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    return [line for line in seen if line["type"] not in CLAUDE]


def test_text_is_coalesced_per_stretch_and_tool_output_capped(capsys: pytest.CaptureFixture[str]) -> None:
    output = RunOutput("stream-json")
    for event in [
        TextDelta(text="Let me "), TextDelta(text="look."),
        ToolCallStarted(call=ToolCall(id="c1", name="bash", args={"command": "seq 1 9999"})),
        ToolCallFinished(result=ToolResult(call_id="c1", name="bash", content="x" * (CONTENT_CAP + 10))),
        UsageUpdated(request=Usage(requests=1, input_tokens=3), total=Usage(requests=1, input_tokens=3)),
        TextDelta(text="Done."), TurnFinished(output="Done.", usage=Usage(requests=1, input_tokens=3)),
    ]:  # fmt: skip
        output.event(event)
    output.finish(0)
    seen = lines(capsys)
    assert [line["type"] for line in seen] == ["text", "tool_call", "tool_result", "usage", "text", "result"]
    assert seen[0]["text"] == "Let me look."
    assert (len(seen[2]["content"]), seen[2]["truncated"]) == (CONTENT_CAP, True)
    assert (seen[-1]["result"], seen[-1]["num_requests"]) == ("Done.", 1)


def test_text_format_prints_nothing_and_json_only_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    quiet = RunOutput("text")
    quiet.event(TextDelta(text="hi"))
    quiet.finish(0)
    assert capsys.readouterr().out == ""
    one = RunOutput("json")
    one.event(TextDelta(text="hi"))
    one.finish(1)
    assert json.loads(capsys.readouterr().out)["exit_code"] == 1


def test_control_characters_cannot_reach_the_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    output = RunOutput("stream-json")
    output.event(TextDelta(text="\x1b]0;pwned\x07 hi"))
    output.finish(0)
    raw = capsys.readouterr().out
    assert "\x1b" not in raw
    assert "\x07" not in raw
    [text] = [line for line in map(json.loads, raw.splitlines()) if line["type"] == "text"]
    assert text["text"].startswith("\x1b]0;")


@pytest.mark.parametrize(
    ("terminal", "raw", "expected"),
    [
        (False, False, "hi red"),  # a pipe or a file: taken out
        (False, True, "hi\x1b]52;c;eA==\x07 \x1b[31mred"),  # --raw: the model's bytes
        (True, False, "hi␛]52;c;eA==␇ ␛[31mred"),  # a terminal: shown, not obeyed
        (True, True, "hi␛]52;c;eA==␇ ␛[31mred"),  # --raw never reaches a terminal
    ],
)
def test_the_text_answer_is_shown_as_its_destination_needs(terminal: bool, raw: bool, expected: str) -> None:
    assert shown_answer("hi\x1b]52;c;eA==\x07 \x1b[31mred", terminal=terminal, raw=raw) == expected


@pytest.mark.parametrize("own_process", [True, False])
def test_close_ends_the_pipe_of_stdout_while_the_process_goes_on(own_process: bool) -> None:
    """The reader sees the result and then the end, while decode still has work (its servers to stop);
    Python code that called `cli([...])` itself keeps its stdout."""
    import subprocess
    import sys

    child = (
        "import sys, click; from decode.cli import cli; from decode.runtime.output import RunOutput\n"
        f"cli.own_process = {own_process}  # True: `decode` run from a shell\n"
        "with click.Context(cli):\n"
        "    output = RunOutput('stream-json'); output.finish(0); RunOutput.close()\n"
        "print('after the end')\n"
        "import select; select.select([sys.stdin], [], [], 60)"  # still running until the test lets it go
    )
    with subprocess.Popen(
        [sys.executable, "-c", child], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    ) as process:
        assert process.stdout is not None
        assert process.stdin is not None
        try:
            if own_process:
                seen = process.stdout.read()  # returns at the end of the pipe: the child still waits on stdin
                assert process.poll() is None
            else:
                seen = process.stdout.readline() + process.stdout.readline()
        finally:
            process.stdin.close()
            process.wait(timeout=60)
    result, *after = seen.splitlines()
    assert json.loads(result)["exit_code"] == 0
    assert after == ([] if own_process else ["after the end"])


def test_close_leaves_captured_output_alone(capsys: pytest.CaptureFixture[str]) -> None:
    output = RunOutput("stream-json")
    output.finish(0)
    RunOutput.close()
    print("still captured")
    assert capsys.readouterr().out.splitlines()[-1] == "still captured"


def test_a_result_stdout_could_not_take_is_not_an_exit_status_of_0() -> None:
    """A full disk (`decode run > out.json`, here /dev/full) fails the flush: the run must not end
    with its result silently thrown away and a status that says all went well."""
    import subprocess
    import sys

    child = (
        "import click; from decode.cli import cli; from decode.runtime.output import RunOutput\n"
        "cli.own_process = True  # `decode` run from a shell\n"
        "with click.Context(cli):\n"
        "    output = RunOutput('json'); output.finish(0); RunOutput.close()\n"
    )
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-c", child], stdout=full, stderr=subprocess.PIPE, timeout=120)
    assert done.returncode != 0
    assert b"No space left" in done.stderr


def test_the_formatted_view_streams_each_event_and_keeps_the_progress_lines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from decode.entities.events import ToolCallStarted, TurnFinished
    from decode.entities.tool_calls import ToolCall
    from decode.entities.usage import Usage
    from decode.harness.queue import Message
    from decode.harness.runner import TurnEnded, TurnStarted
    from decode.runtime.output import FormattedView
    from decode.runtime.progress import Progress

    view = FormattedView(Progress(), RunOutput("stream-json"))
    for event in [
        TurnStarted(Message("go")),
        ToolCallStarted(call=ToolCall(id="c1", name="read", args={"path": "a.txt"})),
        TurnFinished(output="42", usage=Usage()),
        TurnEnded("finished"),
    ]:
        view.event(event)
    out, err = capsys.readouterr()
    assert [json.loads(line)["type"] for line in out.splitlines()] == ["assistant", "tool_call"]  # Claude Code's, ours
    assert err.splitlines() == ["→ read(a.txt)"]
    assert view.output.summary.result == "42"


def test_a_command_that_failed_is_an_error_result_and_a_refusal_a_permission_denial(
    capsys: pytest.CaptureFixture[str],
) -> None:
    output = RunOutput("stream-json")
    calls = {"c1": "exit code: 1\nstdout: (none)", "c2": "exit code: 0\nstdout: ok", "c3": "killed after 5 s (timeout)"}
    for call_id, content in calls.items():
        output.event(ToolCallStarted(call=ToolCall(id=call_id, name="bash", args={"command": "x"})))
        output.event(ToolCallFinished(result=ToolResult(call_id=call_id, name="bash", content=content)))
    refused = "Permission needed (write notes.md), and this run is headless: …"
    output.event(ToolCallStarted(call=ToolCall(id="c4", name="write", args={"path": "notes.md"})))
    output.event(ToolCallFinished(result=ToolResult(call_id="c4", name="write", content=refused, is_error=True)))
    result = output.finish(0)
    errors = {line["id"]: line["is_error"] for line in lines(capsys) if line["type"] == "tool_result"}
    assert errors == {"c1": True, "c2": False, "c3": True, "c4": True}
    assert result["permission_denials"] == [
        {"tool_name": "write", "tool_use_id": "c4", "tool_input": {"path": "notes.md"}}
    ]


def test_a_retry_is_an_event_in_decodes_words_and_claude_codes(capsys: pytest.CaptureFixture[str]) -> None:
    from pydantic_ai.exceptions import ModelHTTPError

    from decode.runtime.formatted_run import FormattedRun
    from decode.runtime.options import HeadlessOptions

    run = FormattedRun(HeadlessOptions(output_format="stream-json"))
    run.output.max_retries = 3
    run.retried(ModelHTTPError(429, "m", body={"error": {"message": "slow down"}}), 1, 0.5)
    captured = capsys.readouterr()
    own, claude = (json.loads(line) for line in captured.out.splitlines())
    assert own == {"type": "retry", "attempt": 1, "delay_s": 0.5, "error": "HTTP 429 from m: slow down"}
    assert claude["type"] == "system"
    assert {key: claude[key] for key in ("subtype", "attempt", "max_retries", "retry_delay_ms", "error_status")} == {
        "subtype": "api_retry",
        "attempt": 1,
        "max_retries": 3,
        "retry_delay_ms": 500,
        "error_status": 429,
    }
    assert claude["error"] == "rate_limit"
    assert captured.err == "decode: model error (HTTP 429 from m: slow down); retry 1 in 0.5s\n"
