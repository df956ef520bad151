"""Matchers as Claude Code reads them, and decode's tools under Claude Code's names."""

from pathlib import Path

import pytest

from decode.hooks.events import claude_input, claude_name
from decode.hooks.matching import matcher_error, matches


@pytest.mark.parametrize(
    ("matcher", "value", "expected"),
    [
        ("", "Bash", True),
        ("*", "mcp__github__create_issue", True),
        ("Bash", "Bash", True),
        ("Bash", "BashOutput", False),  # a plain name is exact, not a search
        ("Edit|Write", "Write", True),
        ("Edit|MultiEdit|Write", "Read", False),
        ("mcp__github__.*", "mcp__github__create_issue", True),
        ("mcp__github__.*", "mcp__gitlab__create_issue", False),
        ("Notebook.*", "NotebookEdit", True),
        ("startup", "resume", False),
    ],
)
def test_a_matcher_selects_as_claude_code_reads_it(matcher: str, value: str, expected: bool) -> None:
    assert matches(matcher, value) is expected


def test_an_invalid_expression_is_reported_and_matches_nothing() -> None:
    assert matcher_error("Bash(") is not None
    assert "not a valid regular expression" in (matcher_error("[") or "")
    assert not matches("[", "Bash")
    assert matcher_error("*") is None
    assert matcher_error("Edit|Write") is None


def test_decodes_tools_answer_to_claude_codes_names() -> None:
    assert [claude_name(t) for t in ("bash", "edit", "write", "web_fetch", "agent", "todo_write")] == [
        "Bash",
        "Edit",
        "Write",
        "WebFetch",
        "Task",
        "TodoWrite",
    ]
    assert claude_name("mcp__github__create_issue") == "mcp__github__create_issue"


def test_a_file_tools_path_is_claude_codes_absolute_file_path(tmp_path: Path) -> None:
    shaped = claude_input("edit", {"path": "src/app.py", "old_string": "a", "new_string": "b"}, tmp_path)
    assert shaped == {"file_path": str(tmp_path / "src/app.py"), "old_string": "a", "new_string": "b"}
    assert claude_input("bash", {"command": "ls"}, tmp_path) == {"command": "ls"}
