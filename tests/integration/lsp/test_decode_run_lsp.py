"""Through the real CLI: a scripted `decode run` edits a file, and the edit's result carries the new type error."""

import json
import os
import sys
from pathlib import Path

import pytest

from tests.integration.forkserver import as_text, run_forked

pytestmark = pytest.mark.integration

DECODE = Path(sys.executable).parent / "decode"
SCRIPT = [
    {"tool_calls": [{"name": "read", "args": {"path": "app.py"}}]},
    {
        "tool_calls": [
            {"name": "edit", "args": {"path": "app.py", "old_string": 'size("abc")', "new_string": "size(3)"}}
        ]
    },
    {"tool_calls": [{"name": "lsp", "args": {"operation": "definition", "path": "app.py", "symbol": "size"}}]},
    {"text": "Done."},
]


def run(project: Path, **env: str) -> str:
    """Run the script in `project`; what the session log recorded (tool results included)."""
    turns = project.parent / "turns.json"
    turns.write_text(json.dumps(SCRIPT))
    argv = [str(DECODE), "run", "--model", f"script:{turns}", "--permission-mode", "accept-edits", "break it"]
    # A process of its own, forked from one that imported the CLI already (tests/integration/forkserver.py).
    done = as_text(run_forked(argv, cwd=project, env={**os.environ, **env}))
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Done.\n"
    (log,) = (project / ".decode" / "sessions").glob("*.jsonl")
    return log.read_text()


def test_the_edit_result_shows_the_error_it_caused(project: Path) -> None:
    logged = run(project)
    assert "New errors after this edit (ty):" in logged
    assert "app.py:3:19: error:" in logged
    assert "lib.py:1:5: def size(text: str) -> int:" in logged  # the lsp tool's definition


def test_code_intelligence_can_be_turned_off(project: Path) -> None:
    logged = run(project, DECODE_LSP="false")
    assert "Edited app.py: replaced 1 occurrence at line 3." in logged
    assert "New errors" not in logged
    assert "No language server is running for this conversation" in logged
