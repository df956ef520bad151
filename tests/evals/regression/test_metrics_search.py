"""search_with_tools, untouched_files and answer_mentions on real scripted runs."""

from collections.abc import Callable

import pytest

from evals.regression.metrics import Evidence
from evals.regression.run import CaseResult

RunCase = Callable[..., tuple[CaseResult, Evidence]]

pytestmark = pytest.mark.integration


def test_searching_with_grep_and_glob_satisfies_them(run: RunCase) -> None:
    result, _ = run(
        "search-with-tools",
        [
            {"tool_calls": [{"name": "grep", "args": {"pattern": "def parse_date"}}]},
            {"tool_calls": [{"name": "glob", "args": {"pattern": "utils/*.py"}}]},
            {"text": "parse_date is defined at utils/dates.py:4."},
        ],
    )
    assert result.values == {
        "search_with_tools": 1.0,
        "untouched_files": 1.0,
        "no_invented_files": 1.0,
        "answer_mentions": 1.0,
    }
    assert result.passed


def test_grep_in_bash_and_a_stray_edit_violate_them(run: RunCase) -> None:
    result, evidence = run(
        "search-with-tools",
        [
            {"tool_calls": [{"name": "bash", "args": {"command": "grep -rn 'def parse_date' . | head -5"}}]},
            {"tool_calls": [{"name": "read", "args": {"path": "utils/text.py"}}]},
            {"tool_calls": [{"name": "write", "args": {"path": "utils/text.py", "content": "# touched\n"}}]},
            {"text": "It is in the utils package."},
        ],
    )
    scores = result.values
    assert scores["search_with_tools"] == 0.0
    assert scores["untouched_files"] == 0.75  # 3 of the 4 files unchanged
    assert scores["answer_mentions"] == 0.0
    assert evidence.calls[0].outcome == "success"  # the search itself ran: the metric is about the tool
