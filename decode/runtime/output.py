"""The three output formats of `decode run`: what goes on stdout, for a person or a program.

- `text`: the final answer alone: on a terminal made `visible()`, on a pipe or in a file `plain()`
  (no terminal control sequence in it), as the model wrote it with `--raw` (not on a terminal);
- `json`: one Run Summary object at the end (`decode.runtime.summary`);
- `stream-json`: one JSON object per line as the run goes, flushed per line: `init` first, then
  `text`, `tool_call`, `tool_result`, `usage`, `notice`, `todos`, `subagent`, `progress` as they happen, and
  the same result object last.

`stream-json` also speaks Claude Code's messages (`system`, `assistant`, `user`) beside these, and
`--json` only Codex's `exec --json` events (`decode.runtime.dialect`).

Assistant text is coalesced: one `text` event per model response that wrote any (sent when the
response is complete, before its `usage` and its tool calls), not one per streamed delta. A
`tool_result`'s content is cut to `CONTENT_CAP` characters (`truncated` says so). Every line
validates against `docs/schemas/stream-json.schema.json`. JSON escapes control characters, so no
line can act on a terminal. Progress stays on stderr in every format.
"""

import contextlib
import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from decode.harness.runner import TurnEnded, TurnStarted
from decode.runtime.dialect import Line, dialect_for, failed_command, refused
from decode.runtime.options import OutputFormat
from decode.runtime.plain import plain
from decode.runtime.progress import Progress
from decode.runtime.summary import RunSummary
from decode.runtime.view import TurnView
from decode.visible import visible

if TYPE_CHECKING:
    from decode.agent.compose import Conversation
    from decode.entities import events
    from decode.entities.usage import Usage
    from decode.mcp.client_features import McpProgress

CONTENT_CAP = 4000
"""The most characters of a tool's output a `tool_result` event carries."""


def usage_json(usage: "Usage") -> dict[str, Any]:
    return {
        "requests": usage.requests,
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "total_tokens": usage.total_tokens,
        "cost_usd": usage.cost_usd,
    }


class RunOutput:
    """What the run shows on stdout in `format`, and the Run Summary it fills in on the way."""

    def __init__(self, output_format: OutputFormat = "text", *, raw: bool = False, partial: bool = False) -> None:
        self.format = output_format
        self.raw = raw
        self.partial = partial
        """`--include-partial-messages`: a `text_delta` event per streamed piece of text, as well."""
        """`--raw`: the text answer as the model wrote it, escape sequences and all (never to a terminal)."""
        self.summary = RunSummary()
        self.dialect = dialect_for(output_format, partial=partial)
        """Another tool's vocabulary: Claude Code's messages (stream-json), Codex's events (`--json`)."""
        self._text: list[str] = []
        self._calls: dict[str, events.ToolCall] = {}  # running calls, by id
        self._waiting_since: float | None = None
        """When the model was last asked and has not answered yet (for `duration_api_ms`)."""
        self.max_retries = 0
        """How many times a failed model request is retried (the settings', known once the run starts)."""

    def turn_started(self) -> None:
        """The task went to the model."""
        self._waiting_since = time.monotonic()
        if self.dialect is not None:
            self._say(self.dialect.turn_started())

    @property
    def streams(self) -> bool:
        return self.format == "stream-json"

    def emit(self, event: dict[str, Any]) -> None:
        """One line of stream-json (nothing in the other formats)."""
        if self.streams:
            _write(json.dumps(event))

    def _say(self, lines: list[Line]) -> None:
        """Lines in the other tool's vocabulary, whatever decode's own events do."""
        for line in lines:
            _write(json.dumps(line))

    def answer(self, text: str) -> None:
        """The final answer: on stdout in `text`; in the result object in the JSON formats."""
        if self.format == "text":
            terminal = sys.stdout.isatty()
            _write(shown_answer(text, terminal=terminal, raw=self.raw), keep_ansi=self.raw and not terminal)

    def start(self, conversation: "Conversation") -> None:
        """The conversation is built: its session is this run's; stream-json says what it runs with."""
        from decode import __version__

        session = conversation.session
        self.summary.session_id = session.session_id
        self.max_retries = conversation.settings.max_retries
        agent = conversation.agent
        definition = agent.definition if agent is not None else None
        tools = [spec.name for spec in conversation.options.tools or ()]
        if conversation.subagents is not None:
            tools.append("agent")
        tools += _mcp_tools(conversation)  # the servers' that are ready, now their start-up wait is over
        if definition is not None:
            tools = [name for name in tools if definition.allows(name)]
        settings = conversation.settings
        init = {
            "type": "init",
            "session_id": session.session_id,
            "model": session.model,
            "cwd": str(Path.cwd()),
            "agent": definition.name if definition is not None else "build",
            "permission_mode": str(conversation.gate.mode),
            "tools": tools,
            "sandbox": conversation.options.sandbox or settings.sandbox_mode,  # a resumed one is in options
            "resumed": conversation.options.resume is not None,
            "decode_version": __version__,
            "agents": conversation.subagents.catalog.names() if conversation.subagents is not None else [],
            "skills": _skills(conversation),
            **_mcp_servers(conversation),
        }
        self.emit(init)
        if self.dialect is not None:
            self._say(self.dialect.init(init))

    def event(self, event: "events.AgentEvent") -> None:
        """One event of the turn: kept for the summary, and streamed."""
        from decode.entities import events as ev

        if self.dialect is not None:
            self._say(self.dialect.event(event))
        if isinstance(event, ev.TextDelta):
            self._text.append(event.text)
            if self.partial:
                self.emit({"type": "text_delta", "text": event.text})
            return
        if isinstance(event, ev.UsageUpdated | ev.ToolCallStarted | ev.TurnFinished):
            self.flush_text()  # the response that wrote it is complete
            self._answered()
        if isinstance(event, ev.ToolCallStarted):
            call = event.call
            self._calls[call.id] = call
            self.emit({"type": "tool_call", "id": call.id, "name": call.name, "args": call.args})
        elif isinstance(event, ev.ToolCallFinished):
            result = event.result
            content = result.content
            self._finished_call(result)
            self.emit(
                {
                    "type": "tool_result",
                    "id": result.call_id,
                    "name": result.name,
                    "is_error": result.is_error or failed_command(result),
                    "content": content[:CONTENT_CAP],
                    "truncated": len(content) > CONTENT_CAP,
                    "duration_s": round(result.duration_s, 3),
                }
            )
        elif isinstance(event, ev.UsageUpdated):
            self.summary.usage = (self.summary.usage or ev.Usage()) + event.request
            self.emit({"type": "usage", "request": usage_json(event.request), "total": usage_json(event.total)})
        elif isinstance(event, ev.Notice):
            self.emit({"type": "notice", "level": event.level, "message": event.message})
        elif isinstance(event, ev.TodosUpdated):
            todos = [{"content": todo.content, "status": str(todo.status)} for todo in event.todos]
            self.emit({"type": "todos", "todos": todos})
        elif isinstance(event, ev.TurnFinished):
            self.summary.result = event.output
            self.summary.usage = event.usage  # with what its subagents spent

    def _answered(self) -> None:
        if self._waiting_since is not None:
            self.summary.api_s += time.monotonic() - self._waiting_since
            self._waiting_since = None

    def _finished_call(self, result: "events.ToolResult") -> None:
        """A call is over: a refusal is a permission denial; the last one over, the model is asked again."""
        call = self._calls.pop(result.call_id, None)
        if refused(result):
            args = call.args if call is not None else {}
            self.summary.denials.append({"tool_name": result.name, "tool_use_id": result.call_id, "tool_input": args})
        if not self._calls:
            self._waiting_since = time.monotonic()

    def flush_text(self) -> None:
        """The text the model wrote since the last tool call, as one `text` event."""
        if text := "".join(self._text):
            self.emit({"type": "text", "text": text})
        self._text.clear()

    def retry(self, error: BaseException, attempt: int, delay: float) -> None:
        """A failed model request is retried: `attempt` (1, 2…) in `delay` seconds."""
        from decode.runtime.dialect import retry_of

        retry = retry_of(error, attempt, delay, self.max_retries)
        self.emit({"type": "retry", "attempt": attempt, "delay_s": round(delay, 3), "error": retry.error})
        if self.dialect is not None:
            self._say(self.dialect.retry(retry))

    def subagent_event(self, call_id: str, event: "events.AgentEvent") -> None:
        """One event of a subagent's turn (`LoopOptions.on_subagent_event`): the other tool's lines for it."""
        if self.dialect is not None:
            self._say(self.dialect.subagent_event(call_id, event))

    def mcp_progress(self, update: "McpProgress") -> None:
        """An MCP server's progress on a running call (`progress` of `total`, a message)."""
        event = {"type": "progress", "id": update.call_id, "name": update.tool, "progress": update.progress}
        self.emit(event | {"total": update.total, "message": update.message})

    def subagent(self, update: "events.SubagentProgress") -> None:
        """A subagent started, called a tool or ended (beside the turn's events)."""
        self.emit({"type": "subagent", **update.model_dump(exclude={"kind"})})

    def finish(self, exit_code: int) -> dict[str, Any]:
        """The run is over: the result object, printed in json and stream-json."""
        self.flush_text()
        result = self.summary.to_json(exit_code)
        if self.format == "json":
            _write(json.dumps(result, indent=2))
        if self.dialect is not None:
            self._say(self.dialect.finish(result))
        self.emit(result)
        return result

    @staticmethod
    def close() -> None:
        """Nothing more goes to stdout: a reader of the pipe (`decode run | jq`) sees its end now,
        while decode still stops its MCP servers, not at the exit. Only when decode is the program
        (not `cli([...])` called by Python code that may print next), and only file descriptor 1."""
        with contextlib.suppress(OSError):  # a reader that went away: its end is already seen
            sys.stdout.flush()
        context = click.get_current_context(silent=True)
        if context is None or not getattr(context.find_root().command, "own_process", False):
            return
        try:
            if sys.stdout.fileno() != 1:
                return
        except (OSError, ValueError):  # captured (no file descriptor), or already closed
            return
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)  # the pipe's last writer gone; the flush at exit writes nowhere
        os.close(devnull)


class FormattedView(TurnView):
    """The turn as `decode run --output-format FORMAT` shows it: the same progress lines on stderr,
    stdout in `output`'s format (the answer alone, one result object, or a stream of events)."""

    def __init__(self, progress: Progress, output: RunOutput) -> None:
        super().__init__(progress)
        self.output = output

    def event(self, event: "events.AgentEvent | TurnStarted | TurnEnded") -> None:
        if isinstance(event, TurnStarted):
            self.output.turn_started()
        elif not isinstance(event, TurnEnded):
            self.output.event(event)
        super().event(event)

    def answer(self, text: str) -> None:
        self.output.answer(text)  # on a terminal made visible, on a pipe plain

    def mcp_progress(self, update: "McpProgress") -> None:
        super().mcp_progress(update)
        self.output.mcp_progress(update)

    def subagent(self, update: "events.SubagentProgress") -> None:
        super().subagent(update)
        self.output.subagent(update)


def _mcp_servers(conversation: "Conversation") -> dict[str, Any]:
    """`mcp_servers`: each server's state once the start-up wait is over (none without servers)."""
    if conversation.mcp is None:
        return {}
    from decode.mcp.health import init_entries

    return {"mcp_servers": init_entries(conversation.mcp)}


def _mcp_tools(conversation: "Conversation") -> list[str]:
    """The MCP tools the model is offered, by the names it sees (`mcp__server__tool`)."""
    if conversation.mcp is None:
        return []
    from decode.mcp.names import tool_name

    return [tool_name(server.name, tool.name) for server in conversation.mcp.ready() for tool in server.tools]


def _skills(conversation: "Conversation") -> list[str]:
    """The skills the model can load (built-in, the user's, the project's)."""
    from decode.skills.catalog import discover_skills

    return discover_skills(conversation.loop.deps.workspace).names()


def shown_answer(text: str, *, terminal: bool, raw: bool) -> str:
    """The text answer as stdout gets it: a terminal sees control characters as pictures, a pipe or
    a file gets none (`decode.runtime.plain`), unless `raw` asks for the model's very bytes."""
    if terminal:
        return visible(text)
    return text if raw else plain(text)


def _write(line: str, *, keep_ansi: bool = False) -> None:
    """`line` on stdout, flushed (a reader sees each line as it comes). A reader that went away
    (`| head -1`) does not stop the run: the rest of its stdout is discarded, its session still saved.
    `keep_ansi`: click would take colour codes out on a pipe; `--raw` wants every byte."""
    try:
        click.echo(line, color=True if keep_ansi else None)
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so neither this nor the flush at exit fails again
        os.close(devnull)
