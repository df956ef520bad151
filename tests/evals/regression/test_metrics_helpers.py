"""used_subagent, used_todos and asked_user on real scripted runs."""

from collections.abc import Callable

import pytest

from evals.regression.metrics import Evidence, score
from evals.regression.run import CaseResult

RunCase = Callable[..., tuple[CaseResult, Evidence]]

pytestmark = pytest.mark.integration

TODOS = [{"content": "rename TAX", "status": "in_progress"}, {"content": "docstring", "status": "pending"}]


def test_delegating_planning_and_asking_are_seen(run: RunCase) -> None:
    result, evidence = run(
        "subagent-survey",
        [
            {"tool_calls": [{"name": "todo_write", "args": {"todos": TODOS}}]},
            {"tool_calls": [{"name": "agent", "args": {"prompt": "List services without tests/", "description": "s"}}]},
            {"text": "billing and search have no tests folder."},  # the subagent's answer
            {"tool_calls": [{"name": "ask_user", "args": {"question": "Report as a table?"}}]},
            {"text": "billing and search have no tests folder."},
        ],
    )
    assert result.values == {"used_subagent": 1.0, "untouched_files": 1.0, "answer_mentions": 1.0}
    assert [s.value for s in score(evidence, [{"name": "used_todos"}, {"name": "asked_user"}])] == [1.0, 1.0]
    names = [call.name for call in evidence.calls]
    assert names == ["todo_write", "agent", "ask_user"]
    assert "No user can answer" in evidence.calls[2].content  # what headless answers


def test_doing_it_alone_is_seen_too(run: RunCase) -> None:
    result, evidence = run(
        "subagent-survey",
        [
            {"tool_calls": [{"name": "glob", "args": {"pattern": "services/*/tests/*"}}]},
            {"text": "auth, cart, mail and users have tests."},
        ],
    )
    scores = result.values
    assert scores["used_subagent"] == 0.0
    assert scores["answer_mentions"] == 0.0
    assert [s.value for s in score(evidence, [{"name": "used_todos"}, {"name": "asked_user"}])] == [0.0, 0.0]
    assert not result.passed
