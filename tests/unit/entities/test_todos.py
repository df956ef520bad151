"""The To-do List's items, and how they read as a checklist."""

import pytest
from pydantic import ValidationError

from decode.entities.todos import Todo, TodoStatus, checklist, progress_line, unfinished


def todos(*pairs: tuple[str, str]) -> list[Todo]:
    return [Todo(content=content, status=TodoStatus(status)) for content, status in pairs]


def test_a_checklist_marks_each_status() -> None:
    listed = todos(("read the test", "completed"), ("fix it", "in_progress"), ("run the suite", "pending"))
    assert checklist(listed) == "☑ read the test\n◼ fix it\n☐ run the suite"
    assert progress_line(listed) == "1/3 done · now: fix it"
    assert unfinished(listed)


def test_a_step_on_several_lines_is_one_line_of_the_checklist() -> None:
    assert checklist(todos(("fix\n  the   bug", "pending"))) == "☐ fix the bug"


def test_a_list_all_done_is_finished() -> None:
    listed = todos(("a", "completed"), ("b", "completed"))
    assert not unfinished(listed)
    assert progress_line(listed) == "2/2 done"
    assert not unfinished([])


@pytest.mark.parametrize("item", [{"content": "", "status": "pending"}, {"content": "x", "status": "doing"}])
def test_an_empty_step_or_an_unknown_status_is_refused(item: dict) -> None:
    with pytest.raises(ValidationError):
        Todo.model_validate(item)


def test_the_status_defaults_to_pending_and_round_trips_as_text() -> None:
    todo = Todo(content="write the test")
    assert todo.status is TodoStatus.PENDING
    assert todo.model_dump(mode="json") == {"content": "write the test", "status": "pending"}
