"""How a finished tool call is shown: its line, what it changed or printed under it, all of it on demand.

Every call gets one line (`tool_line()` in `render.py`): `✓ read(README.md) · 12 lines · 0.1s`.
A tool may also have a *view*, a function that reads the call and its result and says better:

- the outcome for the line (`exit 3 · 34 lines`, `+2 -1 at line 5`);
- whether the call failed although the tool did not (a command that exited non-zero: ✗);
- a body printed under the line: a diff, the last lines of a command's output.

The body is capped (`BODY_LINES`) and says how much it left out; nothing is cut for good:
`/last` or Ctrl+O prints the last call whole (`full_call()`): every argument, the whole result.
A failed call shows the first lines of its error the same way.

Lessons add the views of their tools to `views()`: file edits are lesson 04 (`diffs.py`),
commands lesson 05 (`command_view.py`). A view that cannot read a result returns None, and the
call gets the plain line; a view never breaks the transcript.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.console import Group, RenderableType
from rich.text import Text

from decode.visible import visible

if TYPE_CHECKING:
    from decode.entities.tool_calls import ToolCall, ToolResult

logger = logging.getLogger(__name__)

BODY_LINES = 5
"""Lines of a body (a command's output, an error) shown under the tool line."""
DIFF_LINES = 24
"""Lines of a diff shown under an edit; a new file shows its first `FIRST_LINES`."""
FIRST_LINES = 10
DETAIL_STYLE = "dim"
BODY_PREFIX = "  │ "
EXPAND_HINT = "ctrl+o or /last shows all"


@dataclass(frozen=True)
class ToolRun:
    """A finished tool call as a view reads it.

    `output` is the tail of what the tool streamed while it ran (a command's lines, as the user
    watched them); `output_lines` counts all the lines it streamed, not only the tail's.
    """

    call: ToolCall | None
    result: ToolResult
    output: str = ""
    output_lines: int = 0
    streamed: bool = False
    folded: tuple[str, ...] = ()  # [lesson 15]
    """A subagent's own tool calls (`grep(def test_)`), for the `agent` call that ran it."""


@dataclass(frozen=True)
class ToolView:
    """What a view says about a call: the outcome for its line, whether it failed, the body under it."""

    outcome: str
    failed: bool = False
    body: RenderableType | None = None
    in_full: bool = False
    """The body shows what the result does not (a diff): `full_call()` shows it too."""


View = Callable[[ToolRun, int | None], "ToolView | None"]
"""`view(run, limit)`: the call's view, its body at most `limit` lines (None: all of it), or None."""


@functools.cache
def views() -> dict[str, View]:
    """The views by tool name (each lesson adds its tools')."""
    # Imported here, not at the top: the views' modules import this one.
    from decode.tui.command_view import bash_view
    from decode.tui.diffs import edit_view, write_view
    from decode.tui.subagent_view import agent_view  # [lesson 15]
    from decode.tui.todos import todo_view

    return {
        "edit": edit_view,  # [lesson 04]
        "write": write_view,  # [lesson 04]
        "bash": bash_view,  # [lesson 05]
        "todo_write": todo_view,  # [lesson 13]
        "agent": agent_view,  # [lesson 15]
    }


def view_of(run: ToolRun, limit: int | None) -> ToolView | None:
    """The view of `run` (its tool's, or the first lines of its error), or None for the plain line."""
    view = views().get(run.result.name)
    if view is not None:
        try:
            if (shown := view(run, limit)) is not None:
                return shown
        except Exception:  # a view is a nicety: the plain line is still right
            logger.debug("the view of %s failed", run.result.name, exc_info=True)
    if run.result.is_error:
        return error_view(run.result, limit)
    return None


def error_view(result: ToolResult, limit: int | None) -> ToolView | None:
    """A failed call: its first line for the tool line, the rest of the error under it (wrapped, not cut)."""
    lines = visible(result.content).strip().splitlines()
    if not lines:
        return None
    first = " ".join(lines[0].split())
    rest = lines[1:]
    if len(first) <= 60 and not rest:
        return None  # it fits on the line: nothing more to show
    body_lines = [Text(first), *(Text(line) for line in rest)]
    return ToolView(outcome=first, failed=True, body=capped(body_lines, limit, prefix=BODY_PREFIX))


def capped(
    lines: list[Text], limit: int | None, *, prefix: str = "  ", keep: str = "head", total: int | None = None
) -> Text:
    """`lines` as one body, each after `prefix`; past `limit`, the head (or tail) and a count of the rest.

    `total` is how many lines there really are, when `lines` holds only some of them (a tail).
    """
    shown = lines
    if limit is not None and len(lines) > limit:
        shown = lines[:limit] if keep == "head" else lines[-limit:]
    left_out = (len(lines) if total is None else total) - len(shown)
    body = Text()
    more = Text(f"{prefix}… {left_out} more line{'s' if left_out != 1 else ''} ({EXPAND_HINT})", style=DETAIL_STYLE)
    if left_out and keep == "tail":
        body.append_text(more)
        body.append("\n")
    for index, line in enumerate(shown):
        if index:
            body.append("\n")
        body.append(prefix, style=DETAIL_STYLE)
        body.append_text(line)
    if left_out and keep == "head":
        body.append("\n")
        body.append_text(more)
    return body


def full_call(run: ToolRun) -> RenderableType:
    """The whole call, for `/last` and Ctrl+O: the tool, every argument in full, the whole result."""
    result, call = run.result, run.call
    mark, style = ("✗", "red") if result.is_error else ("✓", "green")
    parts: list[RenderableType] = [
        Text.assemble(
            (f"{mark} ", style),
            (visible(call.summary() if call is not None else result.name), "bold"),
            (f" · {result.duration_s:.1f}s", DETAIL_STYLE),
        )
    ]
    parts.append(Text("input", style="bold underline"))
    arguments = call.args if call is not None else {}
    if not arguments:
        parts.append(Text("  (no arguments)", style=DETAIL_STYLE))
    for name, value in arguments.items():
        text = visible(value if isinstance(value, str) else repr(value))
        if "\n" in text:
            parts.append(Text(f"  {name}:", style="bold"))
            parts.append(Text("\n".join(f"    {line}" for line in text.splitlines())))
        else:
            parts.append(Text.assemble((f"  {name}: ", "bold"), text))
    view = view_of(run, None)
    if view is not None and view.body is not None and view.in_full:
        parts.append(Text("change", style="bold underline"))
        parts.append(view.body)
    parts.append(Text("output (what the model read)", style="bold underline"))
    content = visible(result.content).rstrip("\n")
    parts.append(Text("\n".join(f"  {line}" for line in content.splitlines()) or "  (empty)"))
    return Group(*parts)
