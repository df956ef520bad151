"""decode's events as Codex's `exec --json` events: items by tool, statuses by outcome, the turn's
end by how the run ended."""

from decode.entities.events import (
    TextDelta,
    ThinkingDelta,
    TodosUpdated,
    ToolCallFinished,
    ToolCallStarted,
    TurnFinished,
    UsageUpdated,
)
from decode.entities.todos import Todo
from decode.entities.tool_calls import ToolCall, ToolResult
from decode.entities.usage import Usage
from decode.runtime.codex_events import CodexEvents

USAGE = UsageUpdated(request=Usage(requests=1), total=Usage(requests=1))
DENIED = "Permission denied: Bash(rm:*) is denied by a rule in --disallowed-tools."


def call(events: CodexEvents, id: str, name: str, args: dict, content: str, *, error: bool = False) -> list[dict]:
    started = events.event(ToolCallStarted(call=ToolCall(id=id, name=name, args=args)))
    return started + events.event(
        ToolCallFinished(result=ToolResult(call_id=id, name=name, content=content, is_error=error))
    )


def test_a_thread_a_turn_and_the_models_words_as_items() -> None:
    events = CodexEvents()
    assert events.init({"session_id": "1a2b3c4d"}) == [{"type": "thread.started", "thread_id": "1a2b3c4d"}]
    assert events.turn_started() == [{"type": "turn.started"}]
    for delta in [ThinkingDelta(text="Hmm."), TextDelta(text="Hello "), TextDelta(text="there.")]:
        assert events.event(delta) == []
    lines = events.event(USAGE) + events.event(TurnFinished(output="Hello there.", usage=Usage()))
    assert lines == [
        {"type": "item.completed", "item": {"id": "item_0", "type": "reasoning", "text": "Hmm."}},
        {"type": "item.completed", "item": {"id": "item_1", "type": "agent_message", "text": "Hello there."}},
    ]


def test_commands_complete_fail_or_are_declined() -> None:
    events = CodexEvents()
    ok = call(events, "c1", "bash", {"command": "echo hi"}, "exit code: 0\nstdout:\nhi\nstderr: (empty)")
    assert ok[0]["item"] | {"id": "x"} == {
        "id": "x", "type": "command_execution", "command": "echo hi", "aggregated_output": "", "exit_code": None,
        "status": "in_progress",
    }  # fmt: skip
    assert (ok[1]["type"], ok[1]["item"]["id"]) == ("item.completed", ok[0]["item"]["id"])
    assert (ok[1]["item"]["aggregated_output"], ok[1]["item"]["exit_code"], ok[1]["item"]["status"]) == (
        "hi\n", 0, "completed",
    )  # fmt: skip
    failed = call(events, "c2", "bash", {"command": "false"}, "exit code: 1\nstdout: (empty)\nstderr:\nboom")
    assert (failed[1]["item"]["exit_code"], failed[1]["item"]["status"]) == (1, "failed")
    assert failed[1]["item"]["aggregated_output"] == "boom\n"
    declined = call(events, "c3", "bash", {"command": "rm -rf x"}, DENIED, error=True)
    assert (declined[1]["item"]["exit_code"], declined[1]["item"]["status"]) == (None, "declined")


def test_file_changes_web_fetches_and_other_tools() -> None:
    events = CodexEvents()
    [created] = call(events, "w", "write", {"path": "new.py", "content": ""}, "Created new.py (0 lines).")
    assert created["item"]["changes"] == [{"path": "new.py", "kind": "add"}]
    [edited] = call(events, "e", "edit", {"path": "a.py"}, "Edited a.py.")
    assert (edited["item"]["changes"][0]["kind"], edited["item"]["status"]) == ("update", "completed")
    fetched = call(events, "f", "web_fetch", {"url": "https://x.org"}, "page")
    assert fetched[0]["item"] | {"id": ""} == {
        "id": "", "type": "web_search", "query": "https://x.org", "action": {"type": "open_page", "url": "https://x.org"}
    }  # fmt: skip
    mcp = call(events, "m", "mcp__github__search", {"q": "bug"}, "3 issues")
    assert (mcp[1]["item"]["server"], mcp[1]["item"]["tool"], mcp[1]["item"]["status"]) == (
        "github",
        "search",
        "completed",
    )
    assert mcp[1]["item"]["result"]["content"] == [{"type": "text", "text": "3 issues"}]
    read = call(events, "r", "read", {"path": "a.py"}, "no such file", error=True)
    assert (read[1]["item"]["server"], read[1]["item"]["error"], read[1]["item"]["status"]) == (
        "decode", {"message": "no such file"}, "failed",
    )  # fmt: skip


def test_the_todo_list_starts_updates_and_completes_with_the_turn() -> None:
    events = CodexEvents()
    events.turn_started()
    [started] = events.event(TodosUpdated(todos=[Todo(content="a", status="in_progress")]))
    [updated] = events.event(TodosUpdated(todos=[Todo(content="a", status="completed")]))
    assert (started["type"], updated["type"]) == ("item.started", "item.updated")
    assert updated["item"]["items"] == [{"text": "a", "completed": True}]
    usage = {"input_tokens": 9, "output_tokens": 2, "cache_read_input_tokens": 4}
    done = events.finish({"is_error": False, "usage": usage})
    assert [line["type"] for line in done] == ["item.completed", "turn.completed"]
    assert done[0]["item"]["id"] == started["item"]["id"]
    assert done[1]["usage"] == {"input_tokens": 9, "cached_input_tokens": 4, "output_tokens": 2}


def test_a_failed_run_ends_with_an_error_and_turn_failed() -> None:
    events = CodexEvents()
    failed = {"is_error": True, "error": "model request failed: 500", "exit_code": 1}
    assert events.finish(failed) == [{"type": "error", "message": "model request failed: 500"}]  # never began
    events.turn_started()
    assert events.finish(failed)[-1] == {"type": "turn.failed", "error": {"message": "model request failed: 500"}}
