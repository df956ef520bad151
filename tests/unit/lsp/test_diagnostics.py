"""New errors: the multiset of (file, severity, message) after an edit, less the one before."""

from pathlib import Path

from decode.lsp.diagnostics import Problem, new_problems, problems

A, B = Path("/w/a.py"), Path("/w/b.py")


def test_an_error_that_only_moved_is_not_new() -> None:
    before = [Problem(A, 3, 1, 1, "Name `x` is not defined")]
    after = [Problem(A, 9, 1, 1, "Name `x` is not defined")]  # lines were added above it
    assert new_problems(before, after) == []


def test_a_second_copy_of_an_old_error_is_new() -> None:
    old = Problem(A, 3, 1, 1, "Name `x` is not defined")
    again = Problem(A, 7, 5, 1, "Name `x` is not defined")
    assert new_problems([old], [old, again]) == [again]


def test_the_same_message_in_another_file_or_severity_is_new() -> None:
    before = [Problem(A, 1, 1, 1, "bad")]
    after = [Problem(B, 1, 1, 1, "bad"), Problem(A, 1, 1, 2, "bad")]
    assert new_problems(before, after) == after


def test_server_diagnostics_become_problems_at_one_based_code_point_columns() -> None:
    text = 'x = "😀" + 1\n'
    item = {
        "range": {"start": {"line": 0, "character": 4}, "end": {"line": 0, "character": 12}},
        "message": "Operator  `+`\n is not supported",
        "code": "unsupported-operator",
    }
    (found,) = problems(A, text, [item])
    assert (found.line, found.column) == (1, 5)
    assert found.severity == 1  # none given: taken as an error
    assert found.message == "Operator `+` is not supported"  # whitespace folded into one line
    assert found.code == "unsupported-operator"
