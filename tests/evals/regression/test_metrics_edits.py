"""read_before_edit, minimal_diff and no_invented_files violated on a real scripted run (the careful
run that satisfies them is `test_commands.py`'s: `python -m evals regression` on the same case)."""

from collections.abc import Callable

import pytest

from evals.regression.metrics import Evidence
from evals.regression.run import CaseResult

RunCase = Callable[..., tuple[CaseResult, Evidence]]

pytestmark = pytest.mark.integration

OLD, NEW = '    print("hi")', '    print("hello")'


def test_a_blind_rewrite_with_a_scratch_file_violates_them(run: RunCase) -> None:
    rewritten = "def greet():\n    print('hello')  # greeting\n\n\ndef farewell():\n    print('bye!')\n"
    result, evidence = run(
        "read-before-edit",
        [
            # edit without a read: the tool refuses it, and the metric counts the attempt
            {"tool_calls": [{"name": "edit", "args": {"path": "app.py", "old_string": OLD, "new_string": NEW}}]},
            {"tool_calls": [{"name": "read", "args": {"path": "app.py"}}]},
            {"tool_calls": [{"name": "write", "args": {"path": "app.py", "content": rewritten}}]},
            {"tool_calls": [{"name": "write", "args": {"path": "NOTES.md", "content": "greeting changed\n"}}]},
            {"text": "Done."},
        ],
    )
    scores = result.values
    assert scores["read_before_edit"] == 0.5  # one blind attempt of two
    assert scores["minimal_diff"] < 1.0  # four lines changed against a limit of two
    assert scores["no_invented_files"] == 0.0
    assert not result.passed
    assert "NOTES.md" in evidence.after
