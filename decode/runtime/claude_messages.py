"""Claude Code's `stream-json` messages, written beside decode's own events.

    system (init)  ──▶  assistant (thinking, text, tool_use …)  ──▶  user (tool_result)  ──▶ … ──▶  result

A script written for `claude -p --output-format stream-json --verbose` reads these:

- `{"type": "system", "subtype": "init", "session_id", "cwd", "model", "tools", "mcp_servers",
  "permissionMode", …}` once the conversation is built;
- `{"type": "assistant", "message": {"id", "type": "message", "role": "assistant", "model",
  "content": [block], "usage", …}, "parent_tool_use_id": null, "session_id"}`: one per content
  block, as Claude Code writes them (the blocks of one model response share the message `id`):
  `thinking`, `text`, `tool_use` (`id`, `name`, `input`);
- `{"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id",
  "content", "is_error"}]}, …}` for each tool's result, a refused or failed one with `is_error`;
- with `--include-partial-messages`, `{"type": "stream_event", "event": {"type": "content_block_delta",
  "delta": {"type": "text_delta", "text"}}}` per streamed piece of text;
- `{"type": "system", "subtype": "api_retry", "attempt", "max_retries", "retry_delay_ms",
  "error_status", "error"}` when a failed model request is retried (`error`: `rate_limit`,
  `server_error`…, from the HTTP status);
- a subagent's `assistant` and `user` messages too, their `parent_tool_use_id` the id of the
  parent's `agent` call that runs it (null on the run's own); each response's `usage` carries the
  provider's prompt-cache counts (`cache_read_input_tokens`, `cache_creation_input_tokens`);
- the result object last (decode's own, which carries Claude Code's keys). A run that failed
  after its turn began first says why in an assistant message of model `<synthetic>`, as Claude
  Code shows an API error.

Tool names stay decode's own (`bash`, `read`, `mcp__server__tool`).
"""

import uuid
from typing import TYPE_CHECKING, Any

from decode.entities.usage import Usage
from decode.runtime.dialect import Dialect, Line, Retry, failed_command

if TYPE_CHECKING:
    from decode.entities import events

PERMISSION_MODES = {"accept-edits": "acceptEdits", "bypass": "bypassPermissions"}
"""decode's mode names as Claude Code spells them (`default` and `plan` are the same)."""


class ClaudeMessages(Dialect):
    """decode's events as Claude Code's messages."""

    def __init__(self, *, partial: bool = False, parent: str | None = None) -> None:
        self.partial = partial
        self.parent = parent
        """The parent's `agent` call id, for a subagent's messages (`parent_tool_use_id`); None: the run's own."""
        self.session_id = ""
        self.model = ""
        self._subagents: dict[str, ClaudeMessages] = {}
        self._text: list[str] = []
        self._thinking: list[str] = []
        self._message: dict[str, Any] | None = None
        """The model response whose blocks are being written: its `id` and `usage`."""
        self._began = False

    def init(self, init: Line) -> list[Line]:
        self.session_id, self.model = init["session_id"], init["model"]
        servers = [{"name": server["name"], "status": server["status"]} for server in init.get("mcp_servers", [])]
        mode = str(init["permission_mode"])
        return [
            self._line(
                "system",
                subtype="init",
                cwd=init["cwd"],
                model=self.model,
                tools=init["tools"],
                mcp_servers=servers,
                permissionMode=PERMISSION_MODES.get(mode, mode),
                agents=init["agents"],
                skills=init["skills"],
                slash_commands=[],
                apiKeySource="none",
                output_style="default",
            )
        ]

    def turn_started(self) -> list[Line]:
        self._began = True
        return []

    def event(self, event: "events.AgentEvent") -> list[Line]:
        from decode.entities import events as ev

        if isinstance(event, ev.TextDelta):
            self._text.append(event.text)
            return [self._delta(event.text)] if self.partial else []
        if isinstance(event, ev.ThinkingDelta):
            self._thinking.append(event.text)
        elif isinstance(event, ev.UsageUpdated):
            return self._response(event.request)
        elif isinstance(event, ev.TurnFinished) and (self._text or self._thinking):
            return self._response(Usage())  # text no request's usage followed
        elif isinstance(event, ev.ToolCallStarted):
            call = event.call
            return [self._assistant({"type": "tool_use", "id": call.id, "name": call.name, "input": call.args})]
        elif isinstance(event, ev.ToolCallFinished):
            result = event.result
            is_error = result.is_error or failed_command(result)
            block = {"type": "tool_result", "tool_use_id": result.call_id, "content": result.content}
            message = {"role": "user", "content": [block | {"is_error": is_error}]}
            return [self._line("user", message=message, parent_tool_use_id=self.parent)]
        return []

    def retry(self, retry: Retry) -> list[Line]:
        """Claude Code's `api_retry` message: which retry, of how many, after how long, and why."""
        return [
            self._line(
                "system",
                subtype="api_retry",
                attempt=retry.attempt,
                max_retries=retry.max_retries,
                retry_delay_ms=round(retry.delay_s * 1000),
                error_status=retry.status,
                error=api_error(retry.status),
            )
        ]

    def subagent_event(self, call_id: str, event: "events.AgentEvent") -> list[Line]:
        """A subagent's messages, as Claude Code streams them: `parent_tool_use_id` is its `agent` call."""
        from decode.entities import events as ev

        child = self._subagents.get(call_id)
        if child is None:
            child = self._subagents[call_id] = ClaudeMessages(parent=call_id)
            child.session_id, child.model = self.session_id, self.model
        lines = child.event(event)
        if isinstance(event, ev.TurnFinished):
            del self._subagents[call_id]
        return lines

    def finish(self, result: Line) -> list[Line]:
        """A run that failed once its turn began says why as an assistant message, as Claude Code does."""
        if not (self._began and result["is_error"] and result["error"]):
            return []
        self._message, self.model = None, "<synthetic>"
        return [self._assistant({"type": "text", "text": result["error"]})]

    def _response(self, usage: Usage) -> list[Line]:
        """A model response is complete: a message of its own, its thinking and text blocks now."""
        self._new_message(usage)
        blocks = []
        if thinking := "".join(self._thinking):
            blocks.append({"type": "thinking", "thinking": thinking, "signature": ""})
        if text := "".join(self._text):
            blocks.append({"type": "text", "text": text})
        self._text.clear()
        self._thinking.clear()
        return [self._assistant(block) for block in blocks]

    def _new_message(self, usage: Usage) -> dict[str, Any]:
        """A new model response's `id` and `usage`, the blocks to come are its own."""
        self._message = {
            "id": f"msg_{uuid.uuid4().hex[:24]}",
            "usage": {
                "input_tokens": usage.input_tokens,
                "output_tokens": usage.output_tokens,
                "cache_creation_input_tokens": usage.cache_write_tokens,
                "cache_read_input_tokens": usage.cache_read_tokens,
            },
        }
        return self._message

    def _assistant(self, block: dict[str, Any]) -> Line:
        """One content block of the current model response, as an assistant message."""
        response = self._message or self._new_message(Usage())
        message = {
            "id": response["id"],
            "type": "message",
            "role": "assistant",
            "model": self.model,
            "content": [block],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": response["usage"],
        }
        return self._line("assistant", message=message, parent_tool_use_id=self.parent)

    def _delta(self, text: str) -> Line:
        event = {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": text}}
        return self._line("stream_event", event=event, parent_tool_use_id=self.parent)

    def _line(self, kind: str, **fields: Any) -> Line:
        return {"type": kind, **fields, "session_id": self.session_id, "uuid": str(uuid.uuid4())}


def api_error(status: int | None) -> str:
    """Claude Code's name for a failed request's error (`SDKAssistantMessageError`), from its HTTP status."""
    if status is None:
        return "unknown"
    if status in (401, 403):
        return "authentication_failed"
    if status == 402:
        return "billing_error"
    if status == 429:
        return "rate_limit"
    if status == 408 or status >= 500:
        return "server_error"
    return "invalid_request" if 400 <= status < 500 else "unknown"
