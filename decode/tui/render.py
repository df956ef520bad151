"""Rich output for the REPL: the Agent Loop's events as the user reads them.

Everything the `Renderer` prints lands above the prompt and stays in the terminal's scrollback:

- a first line naming decode, the model and the directory, and pointing to `/help` (`welcome`);
- the user's prompt, echoed when its turn starts, after a rule that separates it from the turn
  before; a slash command, echoed the same way as it runs (`❯ /help`);
- the answer as Markdown, one finished block at a time (a paragraph ends at a blank line, a code
  block at its closing fence), so nothing printed ever has to be redrawn; one blank line between
  blocks (paragraphs, code blocks, lists) and around tool lines;
- thinking, dimmed;
- one compact line per tool call: `✓ read(README.md) · 12 lines · 0.1s`, and under it what the
  tool's view shows (a diff, a command's last lines: `tool_views.py`); `show_last()` prints the
  last call whole (`/last`, Ctrl+O);
- notices and errors, each in its own style.

What is still being written (the block the model is in the middle of, the tools still running)
is the *live area*: `live()` renders it as ANSI text and the REPL shows it just above the prompt,
redrawn until it is finished and printed for good. The Renderer only needs a Rich `Console`, so a
test (or a notebook) gives it `Console(file=io.StringIO())` and reads what a user would see.

The events are dispatched on their `kind`, not their class: importing `decode.entities` means
importing pydantic, and the REPL keeps that off the path to its first prompt.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.segment import SegmentLines
from rich.text import Text

from decode.tui.footer import spinner_frame
from decode.tui.tool_views import ToolRun, ToolView, full_call, view_of
from decode.visible import visible

if TYPE_CHECKING:
    from decode.entities.events import AgentEvent
    from decode.entities.tools import ToolCall, ToolResult

USER_STYLE = "bold"
PROMPT_MARK_STYLE = "bold cyan"
THINKING_STYLE = "dim italic"
TOOL_OK_STYLE = "green"
TOOL_ERROR_STYLE = "red"
DETAIL_STYLE = "dim"
NOTICE_STYLES = {"info": "dim", "warning": "yellow", "error": "bold red"}
ERROR_STYLE = "bold red"
SEPARATOR_STYLE = "dim"

OUTCOME_WIDTH = 60
LIVE_LINES = 12
TOOL_OUTPUT_LINES = 4
TOOL_OUTPUT_KEEP = 4_096  # characters of a running tool's output kept for the live area

# A fence opens with three or more backticks or tildes (indented at most three spaces) and is
# closed by a line of the same character, at least as long, with nothing after it.
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def _closes(fence: str, opener: re.Match[str] | None, line: str) -> bool:
    """Whether `line` closes `fence`: the same character, at least as many, nothing after."""
    if opener is None:
        return False
    run = opener.group(1)
    return run[0] == fence[0] and len(run) >= len(fence) and not line[opener.end() :].strip()


def split_blocks(text: str) -> tuple[str, str]:
    """Split streamed Markdown into (finished blocks, the block still being written).

    A block is finished by a blank line outside a code fence, or by the line that closes a fence.
    An unterminated last line is never finished: the model may still be writing it.
    """
    finished = 0
    position = 0
    fence: str | None = None
    for line in text.splitlines(keepends=True):
        if not line.endswith("\n"):
            break
        position += len(line)
        opener = _FENCE.match(line)
        if fence is None:
            if opener:
                fence = opener.group(1)
            elif not line.strip():
                finished = position
        elif _closes(fence, opener, line):
            fence = None
            finished = position
    return text[:finished], text[finished:]


def shorten(text: str, width: int = OUTCOME_WIDTH) -> str:
    """One line of at most `width` characters (whitespace collapsed, `…` where it was cut)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def format_duration(seconds: float) -> str:
    """`0.3s`, `12.0s`, `2m05s`."""
    if seconds < 60:
        return f"{seconds:.1f}s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes}m{rest:02d}s"


def outcome(result: ToolResult) -> str:
    """What a tool call came to, in a few words: its one line of output, or how many lines."""
    lines = [line for line in result.content.splitlines() if line.strip()]
    if result.is_error:
        return shorten(lines[0]) if lines else "failed"
    if not lines:
        return "no output"
    return shorten(lines[0]) if len(lines) == 1 else f"{len(lines)} lines"


def tool_line(call: ToolCall | None, result: ToolResult, view: ToolView | None = None) -> Text:
    """The compact line for a finished tool call: mark, tool and key argument, outcome, time.

    A `view` (the tool's, `tool_views.py`) may say better what the call came to, and that it failed.
    """
    summary = visible(call.summary() if call is not None else f"{result.name}()")
    failed = result.is_error or (view is not None and view.failed)
    mark, style = ("✗", TOOL_ERROR_STYLE) if failed else ("✓", TOOL_OK_STYLE)
    said = shorten(view.outcome) if view is not None else outcome(result)
    return Text.assemble(
        (f"{mark} ", style),
        (summary, "bold"),
        (" · ", DETAIL_STYLE),
        (visible(said), TOOL_ERROR_STYLE if failed else DETAIL_STYLE),
        (f" · {format_duration(result.duration_s)}", DETAIL_STYLE),
    )


def _markdown(text: str) -> RenderableType:
    # Imported on first use: rich.markdown pulls in markdown-it and pygments, which the first
    # prompt does not need (the REPL's warm-up thread imports it in the background).
    from rich.markdown import Markdown

    return Markdown(text)


def _trimmed(console: Console, renderable: RenderableType) -> RenderableType:
    """`renderable` without blank lines above and below it (Rich pads lists and code blocks).

    Blocks are printed one at a time, so the Renderer puts exactly one blank line between them.
    """
    lines = console.render_lines(renderable, pad=False)
    while lines and not "".join(segment.text for segment in lines[0]).strip():
        lines.pop(0)
    while lines and not "".join(segment.text for segment in lines[-1]).strip():
        lines.pop()
    return SegmentLines(lines, new_lines=True)


def _tail(text: str, lines: int) -> str:
    """The last `lines` lines of a block, keeping an opening code fence so it still renders as code."""
    all_lines = text.splitlines(keepends=True)
    if len(all_lines) <= lines:
        return text
    head = all_lines[0] if _FENCE.match(all_lines[0]) else ""
    return head + "".join(all_lines[-lines:])


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
        self._held: dict[str, float] = {}  # call id -> since when it waits for the user  # [lesson 06]
        self._waited: dict[str, float] = {}  # call id -> how long it waited before  # [lesson 06]
        self._subagents: dict[str, str] = {}  # `agent` call id -> its subagent's progress line  # [lesson 12]
        self._progress: dict[str, str] = {}  # MCP call id -> its server's last progress line  # [lesson 11]
        self.last_call: ToolRun | None = None
        """The last finished tool call, for `show_last()`."""
        self._last: str | None = None  # what was printed last: "user", "block" or "line"
        self._live_cache: tuple[tuple[str, str, int], str] | None = None
        self._turns = 0  # turns started, for `separator()`

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

    # [lesson 08]
    def answer(self, text: str) -> None:
        """A whole answer at once, as Markdown (the earlier turns of a resumed session)."""
        self._flush()
        if text.strip():
            self._print_block(visible(text))

    # [/lesson 08]

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
            # [lesson 12]
            case "subagent":  # one line under the `agent` call that runs it, replaced as it goes
                if event.call_id in self._running:
                    self._subagents[event.call_id] = event.line()
            # [/lesson 12]
            case "tool_result":
                self._finish_tool(event.result)
            case "notice":
                self.notice(event.message, event.level)
            case "turn_finished":
                self._flush()
                if not self._streamed and event.output.strip():
                    self._print_block(visible(event.output))
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
        self._subagents.clear()  # [lesson 12]
        self._progress.clear()  # [lesson 11]
        self._held.clear()  # [lesson 06]
        self._waited.clear()  # [lesson 06]
        self._streamed = False
        if interrupted:
            self.notice("interrupted", "warning")

    def show_last(self) -> None:
        """Print the last finished tool call whole: every argument, the whole result (`/last`, Ctrl+O)."""
        if self.last_call is None:
            self.notice("no tool call yet: /last shows the last one, whole")
            return
        self.info(full_call(self.last_call))

    # [lesson 06]
    def hold(self, call_ids: set[str], now: float | None = None) -> None:
        """The running calls in `call_ids` wait for the user (an approval): their clocks stop until they leave it."""
        now = time.monotonic() if now is None else now
        for call_id in [held for held in self._held if held not in call_ids]:
            self._waited[call_id] = self._waited.get(call_id, 0.0) + now - self._held.pop(call_id)
        for call_id in call_ids:
            self._held.setdefault(call_id, now)

    def _wait(self, call_id: str, now: float) -> float:
        """How long this call has waited for the user so far (its time shown leaves it out)."""
        held = self._held.get(call_id)
        return self._waited.get(call_id, 0.0) + (now - held if held is not None else 0.0)

    def _without_wait(self, result: ToolResult) -> ToolResult:
        waited = self._wait(result.call_id, time.monotonic())
        self._held.pop(result.call_id, None)
        self._waited.pop(result.call_id, None)
        return result.model_copy(update={"duration_s": max(result.duration_s - waited, 0.0)}) if waited else result

    # [/lesson 06]
    def _finish_tool(self, result: ToolResult) -> None:
        result = self._without_wait(result)  # [lesson 06]
        call, _ = self._running.pop(result.call_id, (None, 0.0))
        self._subagents.pop(result.call_id, None)  # [lesson 12]
        self._progress.pop(result.call_id, None)  # [lesson 11]
        streamed = result.call_id in self._tool_output
        output = self._tool_output.pop(result.call_id, "")
        lines = self._tool_lines.pop(result.call_id, 0) + (1 if output and not output.endswith("\n") else 0)
        run = ToolRun(call, result, output=output, output_lines=lines, streamed=streamed)
        self.last_call = run
        view = view_of(run, TOOL_OUTPUT_LINES)
        self._print_line(tool_line(call, result, view))
        if view is not None and view.body is not None:
            self.console.print(view.body)

    # [lesson 11]
    def progress(self, call_id: str, line: str) -> None:
        """An MCP server's progress on a running call: one line under it, replaced as it goes."""
        if call_id in self._running:
            self._progress[call_id] = visible(line)

    # [/lesson 11]
    # -- the live area ------------------------------------------------------------------------

    def live(self, now: float | None = None) -> str:
        """What is in progress, rendered (ANSI on a terminal console, plain otherwise); '' when idle."""
        now = time.monotonic() if now is None else now
        parts: list[str] = []
        if self._thinking.strip() or self._text.strip():
            parts.append(self._live_blocks())
        for call_id, (call, started) in self._running.items():
            # [lesson 06]
            if call_id in self._held:  # the question above the prompt shows it whole
                waits = Text.assemble(("? ", "yellow"), (call.name, "bold"), (" · waits for your answer", DETAIL_STYLE))
                parts.append(self._capture(waits))
                continue
            started += self._wait(call_id, now)  # its clock stood still while it waited
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
            if (done := self._progress.get(call_id)) is not None:  # [lesson 11]
                line.append(f"\n  ⋯ {done}", style=DETAIL_STYLE)  # [lesson 11]
            if (child := self._subagents.get(call_id)) is not None:  # [lesson 12]
                line.append(f"\n  ⋮ {visible(child)}", style=DETAIL_STYLE)  # [lesson 12]
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
            rendered += self._capture(Text(_tail(self._thinking, self.live_lines).strip(), style=THINKING_STYLE))
        if self._text.strip():
            rendered += self._capture(_trimmed(self.console, _markdown(_tail(self._text, self.live_lines))))
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

    def _print_block(self, markdown: str) -> None:
        if self._last is not None:
            self.console.print()
        self.console.print(_trimmed(self.console, _markdown(markdown)))
        self._last = "block"

    def _print_line(self, line: Text) -> None:
        if self._last == "block":
            self.console.print()
        self.console.print(line)
        self._last = "line"
