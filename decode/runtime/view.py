"""The turn as `decode run` shows it: progress lines on stderr, the answer alone on stdout.

The Turn Runner hands every event to `TurnView.event`, as it hands them to the REPL's renderer.
Text the model wrote before calling a tool is commentary (stderr); the text that ends the turn is
the answer (stdout). A failed turn is one `decode: error: …` line, the REPL's own line
(`decode.agent.failures`).
"""

import sys
from typing import TYPE_CHECKING

import click

from decode.harness.runner import TurnEnded, TurnStarted
from decode.runtime.progress import Progress
from decode.visible import visible

if TYPE_CHECKING:
    from decode.entities import events
    from decode.mcp.client_features import McpProgress


class TurnView:
    """Draws one turn's events for a headless run."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.commentary: list[str] = []
        self.called: dict[str, str] = {}  # call id -> `read(a.txt)`: parallel calls finish in any order
        from decode.runtime.echo import OutputEcho

        self.echo = OutputEcho(progress)  # [lesson 05]

    def event(self, event: "events.AgentEvent | TurnStarted | TurnEnded") -> None:
        """One event from the Turn Runner."""
        from decode.entities import events as ev

        if isinstance(event, TurnStarted):
            return
        if isinstance(event, TurnEnded):
            if event.outcome == "failed":
                self.progress.error(event.error)
            return
        if isinstance(event, ev.TextDelta):
            self.commentary.append(event.text)
        elif isinstance(event, ev.ToolCallStarted):
            if text := "".join(self.commentary).strip():
                self.progress(text)
            self.commentary.clear()
            self.called[event.call.id] = event.call.summary()
            self.progress(f"→ {self.called[event.call.id]}")
        elif isinstance(event, ev.ToolCallFinished):
            self.echo.end_line()  # [lesson 05]
            result = event.result
            shown = self.called.pop(result.call_id, result.name)
            if result.args is not None:  # a PreToolUse hook changed them: what ran  # [lesson 12]
                shown = (
                    f"{ev.ToolCall(id=result.call_id, name=result.name, args=result.args).summary()}, changed by a hook"
                )
            self.progress(f"  {'✗' if result.is_error else '✓'} {shown} ({result.duration_s:.1f}s)")
            if result.is_error:  # why: a bad argument, a failed command, a refusal…
                self.progress(f"    {short_line(result.content)}")
        # [lesson 13]
        elif isinstance(event, ev.TodosUpdated):  # the whole checklist, each time it changes
            from decode.entities.todos import checklist

            self.progress("  to-do list:" if event.todos else "  to-do list: (empty)")
            for line in checklist(event.todos).splitlines():
                self.progress(f"    {line}")
        # [/lesson 13]
        elif isinstance(event, ev.Notice):
            self.progress(f"decode: {event.level}: {event.message}")
        elif isinstance(event, ev.TurnFinished):
            self.answer(event.output)

    def answer(self, text: str) -> None:
        """The answer as it is for a file or a pipe; on a terminal, made visible too."""
        click.echo(visible(text) if sys.stdout.isatty() else text)

    def mcp_progress(self, update: "McpProgress") -> None:  # [lesson 14]
        """An MCP server's progress on a running call: `  ⋯ mcp__s__t 3/10 (30%) · copying`."""
        self.progress(f"  ⋯ {update.tool} {update.line()}")

    def subagent(self, update: "events.SubagentProgress") -> None:  # [lesson 15]
        """A subagent started, called a tool or ended: `  ⋮ explore-1a2b3c4d · find tests · grep(x) · 2 requests`."""
        self.progress(f"  ⋮ {update.agent_id} · {update.line().removeprefix(update.agent).lstrip(' ·')}")


def short_line(text: str, width: int = 160) -> str:
    """The first line of a tool's error, cut to `width` characters."""
    line = text.strip().split("\n", 1)[0]
    return line if len(line) <= width else line[: width - 1] + "…"
