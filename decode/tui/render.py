"""Rich output for the REPL: the Agent Loop's events as the user reads them.

Everything the `Renderer` prints lands above the prompt and stays in the terminal's scrollback:

- a first line naming decode, the model and the directory, and pointing to `/help` (`welcome`);
- the user's prompt, echoed when its turn starts, after a rule that separates it from the turn
  before; a slash command, echoed the same way as it runs (`❯ /help`);
- the answer as Markdown, one finished block at a time (a paragraph ends at a blank line, a code
  block at its closing fence: `markdown_blocks.py`), so nothing printed ever has to be redrawn;
  one blank line between blocks (paragraphs, code blocks, lists) and around tool lines;
- thinking, dimmed;
- one compact line per tool call: `✓ read(README.md) · 12 lines · 0.1s` (`tool_lines.py`), and
  under it what the tool's view shows (a diff, a command's last lines: `tool_views.py`);
  `show_last()` prints the last call whole (`/last`); every call is kept in `calls` for the
  pager (Ctrl+O, `pager.py`), which shows any of them whole without printing it;
- notices and errors, each in its own style.

What is still being written (the block the model is in the middle of, the tools still running)
is the *live area*: `live()` renders it as ANSI text and the REPL shows it just above the prompt,
redrawn until it is finished and printed for good; `under()` puts a line under a running call
there (an MCP server's progress, a subagent's). The Renderer only needs a Rich `Console`, so a
test (or a notebook) gives it `Console(file=io.StringIO())` and reads what a user would see.

The events are dispatched on their `kind`, not their class: importing `decode.entities` means
importing pydantic, and the REPL keeps that off the path to its first prompt.
"""

from __future__ import annotations

import io
import time
from collections.abc import Generator
from contextlib import contextmanager
from dataclasses import replace
from typing import TYPE_CHECKING

from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.text import Text

from decode.tui.footer import spinner_frame
from decode.tui.held_clocks import HeldClocks
from decode.tui.markdown_blocks import markdown, split_blocks, tail, trimmed
from decode.tui.tool_lines import DETAIL_STYLE, TOOL_ERROR_STYLE, format_duration, tool_line
from decode.tui.tool_views import ToolRun, full_call, view_of
from decode.visible import visible

if TYPE_CHECKING:
    from decode.entities.events import AgentEvent
    from decode.entities.tool_calls import ToolCall, ToolResult

USER_STYLE = "bold"
PROMPT_MARK_STYLE = "bold cyan"
THINKING_STYLE = "dim italic"
NOTICE_STYLES = {"info": "dim", "warning": "yellow", "error": "bold red"}
ERROR_STYLE = "bold red"
SEPARATOR_STYLE = "dim"

LIVE_LINES = 12
TOOL_OUTPUT_LINES = 4
TOOL_OUTPUT_KEEP = 4_096  # characters of a running tool's output kept for the live area


class Renderer:
    """Turns events into Rich output on `console`, and reports what is still in progress (`live()`)."""

    def __init__(self, console: Console, *, live_lines: int = LIVE_LINES) -> None:
        self.console = console
        self.live_lines = live_lines
        self._text = ""  # answer text not yet printed (the unfinished block)
        self._thinking = ""  # thinking not yet printed
        self._streamed = False  # this turn streamed some answer text
        self._running: dict[str, tuple[ToolCall, float]] = {}
        self._tool_output: dict[str, str] = {}  # call id -> the tail of its output so far
        self._tool_lines: dict[str, int] = {}  # call id -> how many lines it has streamed
        self._under: dict[str, dict[str, str]] = {}  # call id -> the lines under it, by their mark
        self._folded: dict[str, list[str]] = {}  # an `agent` call's id -> its subagent's tool calls  # [lesson 15]
        self.clocks = HeldClocks()  # the calls that wait for the user, their clocks stopped  # [lesson 06]
        self.last_call: ToolRun | None = None
        """The last finished tool call, for `show_last()`."""
        self.calls: list[ToolRun] = []  # the session's finished calls, for the pager (Ctrl+O)
        self._last: str | None = None  # what was printed last: "user", "block" or "line"
        self._live_cache: tuple[tuple[str, str, int], str] | None = None
        self._turns = 0  # turns started, for `separator()`
        self.ring = True
        """Does `bell()` ring (the `DECODE_BELL` setting)?"""

    # -- what the REPL prints itself ----------------------------------------------------------

    def user(self, prompt: str) -> None:
        """Echo the user's prompt as its turn starts."""
        self._flush()
        if self._last is not None:
            self.console.print()
        lines = visible(prompt).splitlines() or [""]
        text = Text.assemble(("❯ ", PROMPT_MARK_STYLE), (lines[0], USER_STYLE))
        for line in lines[1:]:
            text.append("\n  " + line, style=USER_STYLE)
        self.console.print(text)
        self._last = "user"

    def command(self, line: str) -> None:
        """Echo a slash command as it runs, like a prompt (`❯ /help`); what is streaming stays where it is."""
        if self._last is not None:
            self.console.print()
        self.console.print(Text.assemble(("❯ ", PROMPT_MARK_STYLE), (visible(line), USER_STYLE)))
        self._last = "user"

    def separator(self) -> None:
        """The rule between two turns (none before the first)."""
        self._flush()
        if self._turns:
            self.console.print()
            self.console.print(Rule(style=SEPARATOR_STYLE))
            self._last = None  # the prompt follows the rule without a blank line
        self._turns += 1

    def welcome(self, model: str, directory: str) -> None:
        """The first screen's line: decode, the model, the directory, and where to start."""
        self._print_line(
            Text.assemble(
                ("decode", "bold"),
                (f" · {visible(model) or 'no model'} · {visible(directory)} · /help lists the commands", DETAIL_STYLE),
            )
        )

    def notice(self, message: str, level: str = "info") -> None:
        """Something the user should know that is not part of the answer."""
        if level == "error":
            self.error(message)
            return
        self._print_line(Text(visible(message), style=NOTICE_STYLES.get(level, "")))

    def error(self, message: str) -> None:
        """An error, in its own style; the REPL carries on after it."""
        self._print_line(Text(f"error: {visible(message)}", style=ERROR_STYLE))

    def answer(self, text: str) -> None:
        """A whole answer at once, as Markdown (one that was not streamed; a resumed session's earlier turns)."""
        self._flush()
        if text.strip():
            self._print_block(visible(text))

    def info(self, renderable: RenderableType) -> None:
        """Output of a slash command (help, cost…), printed as it is."""
        self._flush()
        self.console.print(renderable)
        self._last = "line"

    # -- the event stream ---------------------------------------------------------------------

    def event(self, event: AgentEvent) -> None:
        """Render one event of the Agent Loop."""
        match event.kind:
            # Text decode did not write goes through `visible()`: no escape sequence of it acts.
            case "text":
                self._on_text(visible(event.text))
            case "thinking":
                self._on_thinking(visible(event.text))
            case "tool_call":
                self._flush()
                self._running[event.call.id] = (event.call, time.monotonic())
            case "tool_output":
                # Only the live area shows it (the tail of a running command); the model gets it all.
                if event.call_id in self._running:
                    output = self._tool_output.get(event.call_id, "") + event.text  # made visible when shown
                    self._tool_output[event.call_id] = output[-TOOL_OUTPUT_KEEP:]
                    self._tool_lines[event.call_id] = self._tool_lines.get(event.call_id, 0) + event.text.count("\n")
            # [lesson 15]
            case "subagent":  # one line under the `agent` call that runs it, replaced as it goes
                self.under(event.call_id, "⋮", event.line())
                folded = self._folded.setdefault(event.call_id, [])
                if event.tools > len(folded) and event.call_id in self._running:  # its own calls, folded under
                    folded.append(visible(event.last_tool))
            # [/lesson 15]
            case "tool_result":
                self._finish_tool(event.result)
            case "notice":
                self.notice(event.message, event.level)
            case "turn_finished":
                self.answer("" if self._streamed else event.output)
                self._streamed = False
            case _:  # usage: the footer shows it
                pass

    def end_turn(self, *, interrupted: bool = False) -> None:
        """Print whatever the turn left unfinished (after an error or an interruption too)."""
        self._flush()
        for call, _ in self._running.values():
            self._print_line(
                Text.assemble(("✗ ", TOOL_ERROR_STYLE), (visible(call.summary()), "bold"), (" · stopped", DETAIL_STYLE))
            )
        self._running.clear()
        self._tool_output.clear()
        self._tool_lines.clear()
        self._under.clear()
        self._folded.clear()  # [lesson 15]
        self.clocks.clear()  # [lesson 06]
        self._streamed = False
        if interrupted:
            self.notice("interrupted", "warning")

    def bell(self) -> None:
        """Ring the terminal's bell (`\\a`): decode waits for the user. Only on a terminal, when `ring` is on."""
        if self.ring and self.console.is_terminal:
            self.console.file.write("\a")
            self.console.file.flush()

    def show_last(self) -> None:
        """Print the last finished tool call whole: every argument, the whole result (`/last`, Ctrl+O)."""
        if self.last_call is None:
            self.notice("no tool call yet: /last shows the last one, whole")
            return
        self.info(full_call(self.last_call))

    def under(self, call_id: str, mark: str, line: str) -> None:
        """A line under a running call in the live area (`⋯` an MCP server's progress, `⋮` a subagent's),
        replaced by the next with the same mark; gone when the call ends."""
        if call_id in self._running:
            self._under.setdefault(call_id, {})[mark] = visible(line)

    def _finish_tool(self, result: ToolResult) -> None:
        result = self.clocks.without_wait(result)  # [lesson 06]
        call, _ = self._running.pop(result.call_id, (None, 0.0))
        if call is not None and result.args is not None:  # a PreToolUse hook changed them: what ran  # [lesson 12]
            call = call.model_copy(update={"args": result.args})
        self._under.pop(result.call_id, None)
        streamed = result.call_id in self._tool_output
        output = self._tool_output.pop(result.call_id, "")
        lines = self._tool_lines.pop(result.call_id, 0) + (1 if output and not output.endswith("\n") else 0)
        run = ToolRun(call, result, output=output, output_lines=lines, streamed=streamed)
        run = replace(run, folded=tuple(self._folded.pop(result.call_id, ())))  # a subagent's calls  # [lesson 15]
        self.shown_call(run)

    def shown_call(self, run: ToolRun, *, timed: bool = True) -> None:
        """Print a finished call's line and its view's body, and keep it for Ctrl+O; `timed` False: a
        resumed session's call, whose time is not known (the line ends with its outcome)."""
        self.last_call = run
        self.calls.append(run)
        view = view_of(run, TOOL_OUTPUT_LINES)
        body = view.body if view is not None else None
        line = tool_line(run.call, run.result, view)
        if not timed:
            line = line[: len(line) - len(f" · {format_duration(run.result.duration_s)}")]
        self._print_line(line, body)  # one write: the prompt never redraws between

    @contextmanager
    def held(self) -> Generator[None]:
        """Hold what is printed meanwhile (the pager covers the screen), and print it when done."""
        held = io.StringIO()
        screen, self.console.file = self.console.file, held
        try:
            yield
        finally:
            self.console.file = screen
            if text := held.getvalue():
                screen.write(text)
                screen.flush()

    # -- the live area ------------------------------------------------------------------------

    def live(self, now: float | None = None) -> str:
        """What is in progress, rendered (ANSI on a terminal console, plain otherwise); '' when idle."""
        now = time.monotonic() if now is None else now
        parts: list[str] = []
        if self._thinking.strip() or self._text.strip():
            parts.append(self._live_blocks())
        for call_id, (call, started) in self._running.items():
            # [lesson 06]
            if self.clocks.held(call_id):  # the question above the prompt shows it whole
                waits = Text.assemble(("? ", "yellow"), (call.name, "bold"), (" · waits for your answer", DETAIL_STYLE))
                parts.append(self._capture(waits))
                continue
            started += self.clocks.wait(call_id, now)  # its clock stood still while it waited
            # [/lesson 06]
            line = Text.assemble(
                (f"{spinner_frame(now)} ", "cyan"),
                (visible(call.summary()), "bold"),
                (f" · {format_duration(now - started)}", DETAIL_STYLE),
            )
            for output_line in self._tool_output.get(call_id, "").splitlines()[-TOOL_OUTPUT_LINES:]:
                # A progress bar rewrites its line with \r: show what it shows now. Colours stay.
                line.append("\n  │ ", style=DETAIL_STYLE)
                shown = Text.from_ansi(output_line.rsplit("\r", 1)[-1], style=DETAIL_STYLE)  # escapes dropped
                shown.plain = visible(shown.plain)  # and any other control character made visible
                line.append_text(shown)
            for mark, under in self._under.get(call_id, {}).items():
                line.append(f"\n  {mark} {under}", style=DETAIL_STYLE)
            line.no_wrap, line.overflow = True, "ellipsis"
            parts.append(self._capture(line))
        return "".join(parts).rstrip("\n")

    def _live_blocks(self) -> str:
        # Rendering Markdown on every redraw would be wasteful: cache it until the text changes.
        key = (self._thinking, self._text, self.console.width)
        if self._live_cache is not None and self._live_cache[0] == key:
            return self._live_cache[1]
        rendered = ""
        if self._thinking.strip():
            rendered += self._capture(Text(tail(self._thinking, self.live_lines).strip(), style=THINKING_STYLE))
        if self._text.strip():
            rendered += self._capture(trimmed(self.console, markdown(tail(self._text, self.live_lines))))
        lines = rendered.splitlines(keepends=True)
        rendered = "".join(lines[-self.live_lines :])
        self._live_cache = (key, rendered)
        return rendered

    def _capture(self, renderable: RenderableType) -> str:
        with self.console.capture() as capture:
            self.console.print(renderable)
        return capture.get()

    # -- printing -----------------------------------------------------------------------------

    def _on_text(self, delta: str) -> None:
        self._flush_thinking()
        self._streamed = True
        finished, self._text = split_blocks(self._text + delta)
        if finished.strip():
            self._print_block(finished)

    def _on_thinking(self, delta: str) -> None:
        self._flush_text()
        self._thinking += delta
        # Thinking is plain text: a paragraph is finished at a blank line.
        finished, blank, rest = self._thinking.rpartition("\n\n")
        if blank and finished.strip():
            self._print_line(Text(finished.strip(), style=THINKING_STYLE))
            self._thinking = rest

    def _flush(self) -> None:
        self._flush_thinking()
        self._flush_text()

    def _flush_text(self) -> None:
        text, self._text = self._text, ""
        if text.strip():
            self._print_block(text)

    def _flush_thinking(self) -> None:
        thinking, self._thinking = self._thinking, ""
        if thinking.strip():
            self._print_line(Text(thinking.strip(), style=THINKING_STYLE))

    def _print_block(self, text: str) -> None:
        if self._last is not None:
            self.console.print()
        self.console.print(trimmed(self.console, markdown(text)))
        self._last = "block"

    def _print_line(self, line: Text, body: RenderableType | None = None) -> None:
        if self._last == "block":
            self.console.print()
        self.console.print(line if body is None else Group(line, body))
        self._last = "line"
