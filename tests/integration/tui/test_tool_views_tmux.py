"""What a tool call shows in a real terminal: a diff after an edit, a failed command's exit code, Ctrl+O's pager."""

import json
from pathlib import Path

import pytest

from tests.integration.conftest import Terminal

pytestmark = pytest.mark.integration


def test_an_edit_shows_its_diff_a_failed_command_its_exit_code_and_ctrl_o_shows_it_all(
    terminal: Terminal, project: Path, decode: str
) -> None:
    (project / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    command = "for n in $(seq 1 34); do echo row-$n; done; exit 3"
    turns = project.parent / "turns.json"
    turns.write_text(
        json.dumps(
            [
                {"tool_calls": [{"name": "read", "args": {"path": "calc.py"}}]},
                {
                    "tool_calls": [
                        {
                            "name": "edit",
                            "args": {"path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"},
                        }
                    ]
                },
                {"tool_calls": [{"name": "bash", "args": {"command": command}}]},
                {"text": "All done."},
            ]
        )
    )
    # bypass: no approval in the way (approvals have their own tests).
    terminal.start(f"{decode} --model script:{turns} --permission-mode bypass; sleep 60", project, size=(120, 50))
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")

    terminal.submit("fix add and run the checks")
    screen = terminal.wait_for_text("All done.")
    lines = [line.rstrip() for line in screen.splitlines()]
    edit = next(i for i, line in enumerate(lines) if line.startswith("✓ edit(calc.py)"))
    assert lines[edit].startswith("✓ edit(calc.py) · +1 -1 at line 2 · ")
    assert lines[edit + 1 : edit + 3] == ["    2 - return a - b", "    2 + return a + b"]
    assert (project / "calc.py").read_text() == "def add(a, b):\n    return a + b\n"

    bash = next(line for line in lines if line.startswith("✗ bash("))  # ✗: it exited 3
    assert " · exit 3 · 34 lines" in bash  # the command's lines, not the wrapper's
    assert "  │ row-34" in lines
    assert "  │ row-1" not in lines  # only the last lines stay under the call…

    terminal.keys("C-o")  # …Ctrl+O opens the pager on the last call, whole
    pane = terminal.wait_for(lambda _: "call 3 of 3" in terminal.pane(), "the pager").rstrip()
    pane = terminal.pane()
    shown = [line.rstrip() for line in pane.split("output (what the model read)")[-1].splitlines()]
    assert "  exit code: 3" in shown
    assert "  row-1" in shown
    assert "  row-34" in shown
    assert f"  command: {command}" in pane
    terminal.keys("p")  # any earlier call
    terminal.wait_for(lambda _: "call 2 of 3" in terminal.pane(), "the edit's page")
    assert "  new_string: return a + b" in terminal.pane()
    terminal.keys("Up")
    terminal.wait_for(lambda _: "call 1 of 3" in terminal.pane(), "the read's page")
    terminal.keys("q")  # q leaves (Esc too: tests/unit/tui/test_pager.py)
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the REPL again")
    screen = terminal.screen()
    assert "output (what the model read)" not in screen  # nothing of it went into the scrollback
    assert "call 1 of 3" not in screen
    assert screen.count("All done.") == 1
