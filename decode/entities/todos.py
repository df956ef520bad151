"""The To-do List: the steps the agent plans for a task, and where each one stands.

The model keeps it with the `todo_write` tool, rewriting the whole list on each call; the front
ends draw it as a checklist, the Session Log keeps it with each turn, and a resumed session
shows it to the model again:

    ☑ read the failing test
    ◼ fix the off-by-one in parse_range
    ☐ run the whole suite
"""

from collections.abc import Sequence
from enum import StrEnum

from pydantic import BaseModel, Field


class TodoStatus(StrEnum):
    """Where one step stands."""

    PENDING = "pending"
    IN_PROGRESS = "in_progress"
    COMPLETED = "completed"


class Todo(BaseModel):
    """One step of the list: what it is, in a few words, and its status."""

    content: str = Field(min_length=1, description="The step, in a few imperative words.")
    status: TodoStatus = TodoStatus.PENDING


MARKS = {TodoStatus.PENDING: "☐", TodoStatus.IN_PROGRESS: "◼", TodoStatus.COMPLETED: "☑"}


def checklist(todos: Sequence[Todo]) -> str:
    """The list as lines of `☐ step` (pending), `◼ step` (in progress), `☑ step` (done)."""
    return "\n".join(f"{MARKS[todo.status]} {' '.join(todo.content.split())}" for todo in todos)


def progress_line(todos: Sequence[Todo]) -> str:
    """`2/5 done · now: fix the off-by-one`: the list in one line."""
    done = sum(todo.status is TodoStatus.COMPLETED for todo in todos)
    current = next((todo.content for todo in todos if todo.status is TodoStatus.IN_PROGRESS), "")
    return f"{done}/{len(todos)} done" + (f" · now: {' '.join(current.split())}" if current else "")


def unfinished(todos: Sequence[Todo]) -> bool:
    """Is any step not done yet?"""
    return any(todo.status is not TodoStatus.COMPLETED for todo in todos)
