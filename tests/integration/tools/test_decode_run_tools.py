"""A scripted `decode run` that reads a file, edits it, runs its test with bash and reports:
the whole lesson 04–05 path through the real CLI, in a real git repository."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.forkserver import as_text, run_forked

pytestmark = pytest.mark.integration

DECODE = Path(sys.executable).parent / "decode"


def decode_run(script: list[dict], task: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    turns = cwd.parent / "turns.json"
    turns.write_text(json.dumps(script))
    # These tests exercise the tools, not the permission rules (lesson 06): let everything run.
    argv = [str(DECODE), "run", "--model", f"script:{turns}", "--permission-mode", "bypass", task]
    # A process of its own, forked from one that imported the CLI already (tests/integration/forkserver.py).
    return as_text(run_forked(argv, cwd=cwd, env={**os.environ, **env}))


@pytest.fixture
def repo(project: Path) -> Path:
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    (project / "calc.py").write_bytes(b"def add(a, b):\r\n    return a - b\r\n")
    (project / "test_calc.py").write_text(
        "from calc import add\n\nassert add(2, 3) == 5, 'add is wrong'\nprint('test passed')\n"
    )
    return project


FIX_ADD = [
    {"text": "Let me find the code.", "tool_calls": [{"name": "grep", "args": {"pattern": "def add"}}]},
    {"tool_calls": [{"name": "read", "args": {"path": "calc.py"}}]},
    {
        "tool_calls": [
            {"name": "edit", "args": {"path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"}}
        ]
    },
    {"tool_calls": [{"name": "bash", "args": {"command": f"{sys.executable} test_calc.py"}}]},
    {"text": "Fixed `add` in calc.py:2; the test passes."},
]


def test_read_edit_test_and_report(repo: Path) -> None:
    done = decode_run(FIX_ADD, "fix add", repo)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Fixed `add` in calc.py:2; the test passes.\n"
    for step in ("→ grep(def add)", "→ read(calc.py)", "→ edit(calc.py)", "→ bash(", "│ test passed"):
        assert step in done.stderr
    assert "✗" not in done.stderr
    assert (repo / "calc.py").read_bytes() == b"def add(a, b):\r\n    return a + b\r\n"  # CRLF kept


def test_an_edit_without_a_read_is_refused_and_the_file_is_untouched(repo: Path) -> None:
    script = [FIX_ADD[2], {"text": "I could not edit without reading."}]
    done = decode_run(script, "fix add", repo)
    assert done.returncode == 0, done.stderr
    assert "✗ edit" in done.stderr
    assert (repo / "calc.py").read_bytes() == b"def add(a, b):\r\n    return a - b\r\n"


def test_commands_run_without_decode_s_keys(repo: Path) -> None:
    script = [
        {"tool_calls": [{"name": "bash", "args": {"command": "env > seen-env.txt"}}]},
        {"text": "done"},
    ]
    done = decode_run(script, "look at env", repo, OPENROUTER_API_KEY="sk-or-top-secret")
    assert done.returncode == 0, done.stderr
    seen = (repo / "seen-env.txt").read_text()
    assert "sk-or-top-secret" not in seen
    assert "PATH=" in seen


def test_a_file_with_mixed_line_endings_is_edited_as_read_shows_it(project: Path) -> None:
    (project / "mixed.py").write_bytes(b"one = 1\r\ntwo = 2\nthree = 3\r\n")
    script = [
        {"tool_calls": [{"name": "read", "args": {"path": "mixed.py"}}]},
        {
            "tool_calls": [
                {
                    "name": "edit",
                    "args": {
                        "path": "mixed.py",
                        "old_string": "one = 1\ntwo = 2\nthree = 3",  # across both kinds of ending
                        "new_string": "one = 1\ntwo = 22\nthree = 3",
                    },
                }
            ]
        },
        {"text": "Edited."},
    ]
    done = decode_run(script, "change two", project)
    assert done.returncode == 0, done.stderr
    assert "✓ edit(mixed.py)" in done.stderr
    assert (project / "mixed.py").read_bytes() == b"one = 1\r\ntwo = 22\nthree = 3\r\n"
