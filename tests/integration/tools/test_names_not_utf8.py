"""File names and bytes that are not UTF-8 never break a turn: every tool of the catalog, through `decode run`.

The workspace holds a file, a folder and a file in it whose names are not UTF-8, a file whose
text is not, and a file with mixed line endings. A scripted model calls every tool the catalog
declares; the run must end with exit 0, the turn saved in the Session Log, and every result
readable there, names spelled `caf\\xe9.txt` (ADR-0092).
"""

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from decode.tools.catalog import default_tools
from tests.integration.forkserver import run_forked

pytestmark = pytest.mark.integration

DECODE = Path(sys.executable).parent / "decode"
CAFE = os.fsdecode(b"caf\xe9.txt")
FOLDER = os.fsdecode(b"dir\xff")
INSIDE = os.fsdecode(b"dir\xff/x\xfe.txt")
MODULE = os.fsdecode(b"m\xf6d.py")

SCRIPT: list[dict[str, Any]] = [
    # A near miss: the "did you mean" hint names the file that is not UTF-8.
    {"tool_calls": [{"name": "read", "args": {"path": "cafe.txt"}}]},
    {"tool_calls": [{"name": "edit", "args": {"path": "cafe.txt", "old_string": "a", "new_string": "b"}}]},
    {"tool_calls": [{"name": "glob", "args": {"pattern": "**/*"}}]},
    {"tool_calls": [{"name": "grep", "args": {"pattern": "bad"}}]},
    # The spelling the results use names the file again.
    {"tool_calls": [{"name": "read", "args": {"path": "caf\\xe9.txt"}}]},
    {"tool_calls": [{"name": "edit", "args": {"path": "caf\\xe9.txt", "old_string": "hello", "new_string": "bye"}}]},
    {"tool_calls": [{"name": "read", "args": {"path": "dir\\xff/x\\xfe.txt"}}]},
    {"tool_calls": [{"name": "write", "args": {"path": "dir\\xff/new.txt", "content": "made\n"}}]},
    {"tool_calls": [{"name": "bash", "args": {"command": "ls -R; printf 'raw \\377 byte\\n'; cat $'caf\\xe9.txt'"}}]},
    {"tool_calls": [{"name": "lsp", "args": {"operation": "symbols", "path": "m\\xf6d.py"}}]},
    {"tool_calls": [{"name": "web_fetch", "args": {"url": "http://127.0.0.1:9/caf%E9.txt"}}]},
    {"tool_calls": [{"name": "todo_write", "args": {"todos": [{"content": "check caf\\xe9.txt"}]}}]},
    {"tool_calls": [{"name": "ask_user", "args": {"question": "Rename caf\\xe9.txt?"}}]},
    {"tool_calls": [{"name": "exit_plan_mode", "args": {"plan": "rename caf\\xe9.txt"}}]},
    {"text": "done"},
]


@pytest.fixture
def workspace(project: Path) -> Path:
    (project / CAFE).write_bytes(b"hello\n")
    (project / FOLDER).mkdir()
    (project / INSIDE).write_bytes(b"bad \xff bytes\n")
    (project / MODULE).write_bytes(b"def f():\n    return 1\n")
    return project


def tool_results(project: Path) -> list[dict[str, Any]]:
    """The tool results of the one turn the Session Log holds (parsed as any reader would)."""
    [log] = (project / ".decode" / "sessions").glob("*.jsonl")
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    [turn] = [record for record in records if record["type"] == "turn"]
    return [
        part
        for message in turn["messages"]
        for part in message["parts"]
        if part["part_kind"] in ("tool-return", "retry-prompt")
    ]


def decode_run(workspace: Path, script: list[dict[str, Any]], task: str) -> subprocess.CompletedProcess[bytes]:
    """`decode run` with `script` as the model, in bypass mode; bytes out, as the terminal gets them."""
    turns = workspace.parent / "turns.json"
    turns.write_text(json.dumps(script))
    argv = [str(DECODE), "run", "--model", f"script:{turns}", "--permission-mode", "bypass", task]
    # A process of its own, forked from one that imported the CLI already (tests/integration/forkserver.py).
    return run_forked(argv, cwd=workspace, env=os.environ.copy())


def test_every_tool_keeps_its_turn_with_names_that_are_not_utf8(workspace: Path) -> None:
    assert {call["name"] for step in SCRIPT for call in step.get("tool_calls", [])} >= {
        spec.name for spec in default_tools()
    }, "a tool of the catalog is missing from this walk"
    done = decode_run(workspace, SCRIPT, "walk the tools")
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    assert done.stdout == b"done\n"
    done.stderr.decode("utf-8")  # the terminal got UTF-8 only

    results = tool_results(workspace)
    contents = [(part["tool_name"], str(part["content"])) for part in results]
    assert len(results) == len(SCRIPT) - 1
    assert not [part for part in results if part.get("outcome") == "interrupted"]
    said = dict(contents[:4])  # the first read, edit, glob and grep
    assert "Did you mean: caf\\xe9.txt?" in said["read"]
    assert "Did you mean: caf\\xe9.txt?" in said["edit"]
    assert {"caf\\xe9.txt", "dir\\xff/x\\xfe.txt", "m\\xf6d.py"} <= set(said["glob"].splitlines())
    assert "dir\\xff/x\\xfe.txt" in said["grep"]
    assert contents[4] == ("read", "     1\thello")
    assert contents[5] == ("edit", "Edited caf\\xe9.txt: replaced 1 occurrence at line 1.")
    assert contents[6] == ("read", "     1\tbad \ufffd bytes")
    assert "dir\\xff/new.txt" in contents[7][1]
    assert "raw \ufffd byte" in contents[8][1]  # bash output that is not UTF-8
    assert "bye" in contents[8][1]
    assert (workspace / CAFE).read_bytes() == b"bye\n"
    assert (workspace / FOLDER / "new.txt").read_bytes() == b"made\n"


def test_the_gate_judges_the_file_the_escaped_spelling_names(workspace: Path) -> None:
    """`caf?.txt` matches the real name (one character where the byte is), not the spelling (four)."""
    (workspace / ".decode").mkdir()
    (workspace / ".decode" / "settings.json").write_text(json.dumps({"permissions": {"deny": ["Read(caf?.txt)"]}}))
    done = decode_run(workspace, [SCRIPT[4], {"text": "done"}], "read it")  # read caf\xe9.txt
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    [result] = tool_results(workspace)
    assert result["outcome"] == "denied"
    assert result["content"].startswith("Permission denied: read caf\\xe9.txt: denied by Read(caf?.txt)")
