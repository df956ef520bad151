"""The To-do List in the REPL: a checklist above the prompt that updates in place, and in the transcript.

While the agent works through its list, the lines above the `❯` show it, redrawn as
`todo_write` rewrites it; once every step is done it goes away:

    ☑ read the failing test
    ◼ fix the off-by-one in parse_range
    ☐ run the whole suite
    ❯

The transcript keeps each version under its `todo_write` line (`todo_view`), so scrolling back
shows how the plan moved. A resumed session shows its list at once (`show_todos`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rich.text import Text

from decode.tui.tool_views import BODY_PREFIX, ToolRun, ToolView
from decode.visible import visible

if TYPE_CHECKING:
    from decode.entities.todos import Todo
    from decode.tui.app import Repl

MARKS = {"pending": "☐", "in_progress": "◼", "completed": "☑"}  # as `decode.entities.todos.MARKS`
STYLES = {"pending": "", "in_progress": "bold", "completed": "dim"}


class TodoPanel:
    """The lines above the prompt: the conversation's To-do List as it is now.

    `source` gives the list (the REPL's: its session's, which `todo_write` changes in place), so
    a `/clear`, a `/resume` or a new conversation is shown at once, without an event of its own.
    """

    def __init__(self, source: Callable[[], Sequence[Todo]] = tuple) -> None:
        self.source = source

    def lines(self, width: int) -> str:
        """The checklist, one line per step cut to `width`; '' when there is none or all are done."""
        items = [(str(todo.status), todo.content) for todo in self.source()]
        if all(status == "completed" for status, _ in items):
            return ""
        room = max(width - 3, 10)
        return "\n".join(f"{MARKS.get(status, '?')} {_cut(content, room)}" for status, content in items)


def _cut(text: str, width: int) -> str:
    line = " ".join(visible(text).split())
    return line if len(line) <= width else line[: width - 1] + "…"


def todo_view(run: ToolRun, limit: int | None) -> ToolView | None:
    """`✓ todo_write · 1/3 done · 0.0s` with the checklist under it, from the call's own arguments."""
    if run.call is None or run.result.is_error or not isinstance(todos := run.call.args.get("todos"), list):
        return None
    items = [(str(item.get("status", "")), str(item.get("content", ""))) for item in todos if isinstance(item, dict)]
    done = sum(status == "completed" for status, _ in items)
    body = Text()
    for index, (status, content) in enumerate(items):
        if index:
            body.append("\n")
        body.append(BODY_PREFIX, "dim")
        body.append(f"{MARKS.get(status, '?')} {' '.join(visible(content).split())}", STYLES.get(status, ""))
    return ToolView(outcome=f"{done}/{len(items)} done", body=body if items else None)


def show_todos(repl: Repl) -> None:
    """After the warm-up: a resumed session's To-do List, once in the transcript (the panel shows it too)."""
    from decode.entities.todos import checklist

    if repl.conversation is None or not (todos := repl.conversation.session.todos):
        return
    repl.renderer.notice("to-do list of the resumed session:")
    repl.renderer.info(Text(visible(checklist(todos))))
