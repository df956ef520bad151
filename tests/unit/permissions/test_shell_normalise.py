"""What bash does to a script before parsing it: line continuations, word-starting braces."""

import pytest

from decode.permissions.shell_normalise import BRACE, normalise


@pytest.mark.parametrize(
    ("script", "normalised"),
    [
        ("r\\\nm x", "rm x"),
        ('echo "a\\\nb"', 'echo "ab"'),
        ("echo 'a\\\nb'", "echo 'a\\\nb'"),  # single quotes keep it
        ("echo $'a\\\nb'", "echo $'a\\\nb'"),
        ("# c \\\nr\\\nm x", "# c \\\nrm x"),  # a comment ends at the newline
        ("cat <<'E'\na\\\nE\nr\\\nm x", "cat <<'E'\na\\\nE\nrm x"),  # a quoted here-doc keeps it
        ("cat <<E\na\\\nb\nE", "cat <<E\nab\nE"),
        ("echo $((1 <<\\\n2))", "echo $((1 <<2))"),  # a shift, not a here-doc
    ],
)
def test_backslash_newline_is_removed_where_bash_removes_it(script: str, normalised: str) -> None:
    assert normalise(script) == normalised


def test_a_word_starting_brace_becomes_a_placeholder_and_a_group_does_not() -> None:
    assert normalise("{rm,x} y") == f"{BRACE}rm,x}} y"
    assert normalise("{ ls; }") == "{ ls; }"
