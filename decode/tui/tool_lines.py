"""One compact line per tool call: `✓ read(README.md) · 12 lines · 0.1s`.

The mark says whether it worked, then the tool and its key argument, what it came to in a few
words (its one line of output, or how many lines; a tool's view may say better, `tool_views.py`)
and how long it took.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from decode.visible import visible

if TYPE_CHECKING:
    from decode.entities.tool_calls import ToolCall, ToolResult
    from decode.tui.tool_views import ToolView

TOOL_OK_STYLE = "green"
TOOL_ERROR_STYLE = "red"
DETAIL_STYLE = "dim"
OUTCOME_WIDTH = 60


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
    if result.args is not None:  # [lesson 12]
        said = f"changed by a hook · {said}"
    return Text.assemble(
        (f"{mark} ", style),
        (summary, "bold"),
        (" · ", DETAIL_STYLE),
        (visible(said), TOOL_ERROR_STYLE if failed else DETAIL_STYLE),
        (f" · {format_duration(result.duration_s)}", DETAIL_STYLE),
    )
