"""Codex's `exec --json` events: what `decode run --json` writes, one JSON object per line.

    thread.started ──▶ turn.started ──▶ item.started / item.updated / item.completed … ──▶ turn.completed
                                                                                      (or error, turn.failed)

A script written for `codex exec --json` reads these. Each item has an `id` (`item_0`, `item_1`…)
and a `type`:

- `agent_message` (`text`) and `reasoning` (`text`): completed when the model response is;
- `command_execution` (`command`, `aggregated_output`, `exit_code`, `status`: in_progress,
  completed, failed, or declined when the Permission Gate refused it): a `bash` call, started and
  completed;
- `file_change` (`changes`: `[{path, kind: add|update}]`, `status`): a `write` or `edit`, completed only;
- `web_search` (`query`, `action`): a `web_fetch`, its URL as an `open_page` action;
- `mcp_tool_call` (`server`, `tool`, `arguments`, `result`, `error`, `status`): an MCP tool, and
  every other tool of decode's (`read`, `grep`, `agent`…) as a tool of server `decode`;
- `todo_list` (`items`: `[{text, completed}]`): started by the first `todo_write`, updated by each
  one after, completed with the turn.

`turn.completed` carries the usage (`input_tokens`, `cached_input_tokens`, `output_tokens`); a run
that failed ends with `error` and `turn.failed` (`error.message`), as Codex's do. A retried model
request is an `error` event too (`Reconnecting... 1/3 (why)`), after which the turn goes on, as in Codex.
"""

from typing import TYPE_CHECKING, Any

from decode.runtime.dialect import Dialect, Line, Retry, command_outcome, refused

if TYPE_CHECKING:
    from decode.entities import events
    from decode.entities.tool_calls import ToolCall, ToolResult

SERVER = "decode"
"""The server decode's own tools (neither a command, a file change nor a web fetch) are shown under."""


class CodexEvents(Dialect):
    """decode's events as Codex's thread events."""

    def __init__(self) -> None:
        self._count = 0
        self._text: list[str] = []
        self._thinking: list[str] = []
        self._running: dict[str, Line] = {}  # started items, by tool call id
        self._paths: dict[str, str] = {}  # the file a running write or edit changes, by tool call id
        self._todos: Line | None = None
        self._began = False

    def init(self, init: Line) -> list[Line]:
        return [{"type": "thread.started", "thread_id": init["session_id"]}]

    def turn_started(self) -> list[Line]:
        self._began = True
        return [{"type": "turn.started"}]

    def event(self, event: "events.AgentEvent") -> list[Line]:
        from decode.entities import events as ev

        if isinstance(event, ev.TextDelta):
            self._text.append(event.text)
            return []
        if isinstance(event, ev.ThinkingDelta):
            self._thinking.append(event.text)
            return []
        lines = self._said() if isinstance(event, ev.UsageUpdated | ev.ToolCallStarted | ev.TurnFinished) else []
        if isinstance(event, ev.ToolCallStarted) and (item := self._started(event.call)) is not None:
            self._running[event.call.id] = item
            lines.append({"type": "item.started", "item": item})
        elif isinstance(event, ev.ToolCallFinished) and (item := self._completed(event.result)) is not None:
            lines.append({"type": "item.completed", "item": item})
        elif isinstance(event, ev.TodosUpdated):
            items = [{"text": todo.content, "completed": str(todo.status) == "completed"} for todo in event.todos]
            kind = "item.updated" if self._todos is not None else "item.started"
            self._todos = {**(self._todos or self._item("todo_list")), "items": items}
            lines.append({"type": kind, "item": self._todos})
        return lines

    def retry(self, retry: Retry) -> list[Line]:
        """Codex's words for a retried request: an `error` event the turn goes on after."""
        return [{"type": "error", "message": f"Reconnecting... {retry.attempt}/{retry.max_retries} ({retry.error})"}]

    def finish(self, result: Line) -> list[Line]:
        lines = self._said()
        if self._todos is not None:
            lines.append({"type": "item.completed", "item": self._todos})
        if not result["is_error"]:
            usage = result["usage"]
            tokens = {
                "input_tokens": usage["input_tokens"],
                "cached_input_tokens": usage["cache_read_input_tokens"],
                "output_tokens": usage["output_tokens"],
            }
            return [*lines, {"type": "turn.completed", "usage": tokens}]
        error = {"message": result["error"] or f"exit code {result['exit_code']}"}
        lines.append({"type": "error", **error})
        return [*lines, {"type": "turn.failed", "error": error}] if self._began else lines

    def _said(self) -> list[Line]:
        """The reasoning and the message of the model response just complete, as items."""
        lines = []
        for kind, parts in (("reasoning", self._thinking), ("agent_message", self._text)):
            if text := "".join(parts):
                lines.append({"type": "item.completed", "item": self._item(kind, text=text)})
            parts.clear()
        return lines

    def _started(self, call: "ToolCall") -> Line | None:
        """The item a tool call starts (a file change is only shown completed; the to-do list has its own)."""
        if call.name in ("write", "edit"):
            self._paths[call.id] = str(call.args.get("path", ""))
            return None
        if call.name == "todo_write":
            return None
        if call.name == "bash":
            command = str(call.args.get("command", ""))
            return self._item("command_execution", command=command, aggregated_output="", exit_code=None) | _RUNNING
        if call.name == "web_fetch":
            url = str(call.args.get("url", ""))
            return self._item("web_search", query=url, action={"type": "open_page", "url": url})
        server, tool = _server_tool(call.name)
        return self._item("mcp_tool_call", server=server, tool=tool, arguments=call.args, result=None, error=None) | (
            _RUNNING
        )

    def _completed(self, result: "ToolResult") -> Line | None:
        """The item a tool's result completes, its status from how the call went."""
        started = self._running.pop(result.call_id, None)
        if result.name in ("write", "edit"):
            kind = "add" if result.content.startswith("Created ") else "update"
            path = self._paths.pop(result.call_id, "")
            status = "failed" if result.is_error else "completed"
            return self._item("file_change", changes=[{"path": path, "kind": kind}], status=status)
        if started is None:
            return None
        item = dict(started)
        if item["type"] == "command_execution":
            code, output = command_outcome(result.content)
            status = "declined" if refused(result) else "completed" if code == 0 else "failed"
            return item | {"aggregated_output": output, "exit_code": code, "status": status}
        if item["type"] == "mcp_tool_call":
            if result.is_error:
                return item | {"error": {"message": result.content}, "status": "failed"}
            answer = {"content": [{"type": "text", "text": result.content}], "structured_content": None}
            return item | {"result": answer, "status": "completed"}
        return item  # a web search: done

    def _item(self, kind: str, **fields: Any) -> Line:
        item = {"id": f"item_{self._count}", "type": kind, **fields}
        self._count += 1
        return item


_RUNNING = {"status": "in_progress"}


def _server_tool(name: str) -> tuple[str, str]:
    """`mcp__server__tool` as (server, tool); one of decode's own tools as (`decode`, name)."""
    if name.startswith("mcp__") and name.count("__") >= 2:
        _, server, tool = name.split("__", 2)
        return server, tool
    return SERVER, name
