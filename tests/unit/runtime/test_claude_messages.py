"""decode's events as Claude Code's stream-json messages: one block per assistant message, tool
results as user messages, a failed run's reason as a synthetic assistant message."""

from decode.entities.events import (
    TextDelta,
    ThinkingDelta,
    ToolCallFinished,
    ToolCallStarted,
    TurnFinished,
    UsageUpdated,
)
from decode.entities.tool_calls import ToolCall, ToolResult
from decode.entities.usage import Usage
from decode.runtime.claude_messages import ClaudeMessages

INIT = {
    "session_id": "1a2b3c4d",
    "model": "anthropic:claude-sonnet-5",
    "cwd": "/work",
    "permission_mode": "accept-edits",
    "tools": ["read", "bash"],
    "agents": ["explore"],
    "skills": [],
    "mcp_servers": [{"name": "echo", "status": "ready", "reason": None}],
}
USAGE = UsageUpdated(request=Usage(requests=1, input_tokens=30, output_tokens=5), total=Usage(requests=1))


def test_init_is_claude_codes_system_message() -> None:
    [init] = ClaudeMessages().init(INIT)
    assert (init["type"], init["subtype"], init["session_id"]) == ("system", "init", "1a2b3c4d")
    assert (init["permissionMode"], init["mcp_servers"]) == ("acceptEdits", [{"name": "echo", "status": "ready"}])


def test_a_response_is_one_assistant_message_per_block_and_results_are_user_messages() -> None:
    messages = ClaudeMessages()
    messages.init(INIT)
    call = ToolCall(id="toolu_1", name="bash", args={"command": "false"})
    failed = ToolResult(call_id="toolu_1", name="bash", content="exit code: 1\nstdout: (empty)\nstderr: (empty)")
    lines = []
    for event in [
        ThinkingDelta(text="Check "), ThinkingDelta(text="first."),
        TextDelta(text="Let me "), TextDelta(text="run it."), USAGE,
        ToolCallStarted(call=call), ToolCallFinished(result=failed),
    ]:  # fmt: skip
        lines += messages.event(event)
    assert [line["type"] for line in lines] == ["assistant", "assistant", "assistant", "user"]
    blocks = [line["message"]["content"][0] for line in lines[:3]]
    assert blocks == [
        {"type": "thinking", "thinking": "Check first.", "signature": ""},
        {"type": "text", "text": "Let me run it."},
        {"type": "tool_use", "id": "toolu_1", "name": "bash", "input": {"command": "false"}},
    ]
    assert len({line["message"]["id"] for line in lines[:3]}) == 1  # one model response
    assert lines[0]["message"]["usage"]["input_tokens"] == 30
    assert all(line["session_id"] == "1a2b3c4d" and line["parent_tool_use_id"] is None for line in lines)
    result = lines[3]["message"]["content"][0]
    assert (result["tool_use_id"], result["is_error"]) == ("toolu_1", True)  # the command exited 1


def test_partial_messages_are_stream_events_and_the_next_response_a_new_message() -> None:
    messages = ClaudeMessages(partial=True)
    [delta] = messages.event(TextDelta(text="Hi"))
    assert delta["type"] == "stream_event"
    assert delta["event"]["delta"] == {"type": "text_delta", "text": "Hi"}
    [first] = messages.event(USAGE)
    messages.event(TextDelta(text="Bye"))
    [second] = messages.event(USAGE)
    assert first["message"]["id"] != second["message"]["id"]
    assert messages.event(TurnFinished(output="Bye", usage=Usage())) == []


def test_a_run_that_failed_says_why_as_a_synthetic_assistant_message() -> None:
    messages = ClaudeMessages()
    failed = {"is_error": True, "error": "model request failed: 529 overloaded"}
    assert messages.finish(failed) == []  # the turn never began: the result line says it
    messages.turn_started()
    [said] = messages.finish(failed)
    assert said["message"]["model"] == "<synthetic>"
    assert said["message"]["content"] == [{"type": "text", "text": "model request failed: 529 overloaded"}]
    assert messages.finish({"is_error": False, "error": None}) == []


def test_claude_codes_error_names_for_a_status() -> None:
    from decode.runtime.claude_messages import api_error

    names = [api_error(status) for status in (None, 401, 402, 400, 429, 408, 500, 529, 302)]
    assert names == [
        "unknown",
        "authentication_failed",
        "billing_error",
        "invalid_request",
        "rate_limit",
        "server_error",
        "server_error",
        "server_error",
        "unknown",
    ]
