"""File changes under their tool line: numbered, coloured diffs, a new file's first lines, approval previews."""

import io
import os
from pathlib import Path

from rich.console import Console

from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.entities.events import ToolCallFinished, ToolCallStarted
from decode.entities.tool_calls import ToolCall, ToolResult
from decode.models.script import ScriptedModel, ScriptedResponse, ScriptedToolCall
from decode.processes.local import LocalExecutor
from decode.tools.catalog import default_tools
from decode.tui.diffs import change_preview, diff_lines
from decode.tui.render import Renderer


def render(calls: list[tuple[ToolCall, ToolResult]], *, colour: bool = False) -> str:
    file = io.StringIO()
    console = Console(file=file, width=100, force_terminal=colour, color_system="standard" if colour else None)
    renderer = Renderer(console)
    for call, result in calls:
        renderer.event(ToolCallStarted(call=call))
        renderer.event(ToolCallFinished(result=result))
    return file.getvalue()


def plain(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines()]


EDIT = ToolCall(
    id="e1",
    name="edit",
    args={
        "path": "calc.py",
        "old_string": "def add(a, b):\n    return a - b\n",
        "new_string": "def add(a, b):\n    return a + b\n",
    },
)
EDITED = ToolResult(call_id="e1", name="edit", content="Edited calc.py: replaced 1 occurrence at line 4.")


def test_an_edit_shows_a_numbered_diff_under_its_line() -> None:
    assert plain(render([(EDIT, EDITED)])) == [
        "✓ edit(calc.py) · +1 -1 at line 4 · 0.0s",
        "    4   def add(a, b):",
        "    5 -     return a - b",
        "    5 +     return a + b",
    ]


def test_the_diff_is_coloured_red_and_green() -> None:
    shown = render([(EDIT, EDITED)], colour=True)
    assert "\x1b[31m-     return a - b" in shown
    assert "\x1b[32m+     return a + b" in shown


def test_a_long_diff_is_capped_and_says_how_much_it_left_out() -> None:
    old = "".join(f"old {n}\n" for n in range(40))
    call = ToolCall(id="e2", name="edit", args={"path": "big.py", "old_string": old, "new_string": "new\n"})
    result = ToolResult(call_id="e2", name="edit", content="Edited big.py: replaced 1 occurrence at line 10.")
    shown = plain(render([(call, result)]))
    assert shown[0] == "✓ edit(big.py) · +1 -40 at line 10 · 0.0s"
    assert len(shown) == 1 + 24 + 1
    assert shown[-1] == "    … 17 more lines (ctrl+o or /last shows all)"


def test_separate_changes_keep_their_context_and_a_gap_between() -> None:
    old = "".join(f"line {n}\n" for n in range(1, 21))
    new = old.replace("line 2\n", "LINE 2\n").replace("line 18\n", "LINE 18\n")
    lines, added, removed = diff_lines(old, new, 1)
    text = [line.plain for line in lines]
    assert (added, removed) == (2, 2)
    assert " 2 - line 2" in text
    assert " 2 + LINE 2" in text
    assert "18 + LINE 18" in text
    assert "   ⋮" in text  # lines 6 to 14 did not change: left out


def test_replace_all_says_how_many_places() -> None:
    call = ToolCall(
        id="e3", name="edit", args={"path": "a.py", "old_string": "foo", "new_string": "bar", "replace_all": True}
    )
    result = ToolResult(call_id="e3", name="edit", content="Edited a.py: replaced 3 occurrences.")
    assert plain(render([(call, result)])) == [
        "✓ edit(a.py) · +1 -1 in each of 3 places · 0.0s",
        "    - foo",
        "    + bar",
    ]


def test_a_new_file_shows_its_first_lines_and_the_count_of_the_rest() -> None:
    content = "".join(f"print({n})\n" for n in range(1, 31))
    call = ToolCall(id="w1", name="write", args={"path": "new.py", "content": content})
    result = ToolResult(call_id="w1", name="write", content="Created new.py (30 lines).")
    shown = plain(render([(call, result)]))
    assert shown[:3] == ["✓ write(new.py) · created · 30 lines · 0.0s", "     1 print(1)", "     2 print(2)"]
    assert shown[10] == "    10 print(10)"
    assert shown[11] == "    … 20 more lines (ctrl+o or /last shows all)"


def test_a_refused_edit_keeps_its_error_not_a_diff() -> None:
    result = ToolResult(call_id="e1", name="edit", content="old_string was not found in calc.py.", is_error=True)
    assert plain(render([(EDIT, result)])) == ["✗ edit(calc.py) · old_string was not found in calc.py. · 0.0s"]


async def test_a_real_edit_and_write_through_the_agent_loop(tmp_path: Path) -> None:
    (tmp_path / "calc.py").write_text("import math\n\n\ndef add(a, b):\n    return a - b\n")
    model = ScriptedModel(
        [
            ScriptedResponse(tool_calls=[ScriptedToolCall(name="read", args={"path": "calc.py"})]),
            ScriptedResponse(
                tool_calls=[
                    ScriptedToolCall(
                        name="edit",
                        args={"path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"},
                    ),
                    ScriptedToolCall(name="write", args={"path": "notes.md", "content": "# Notes\n\nadd fixed\n"}),
                ]
            ),
            ScriptedResponse(text="Fixed."),
        ]
    )
    loop = AgentLoop(
        build_agent(model, tools=default_tools()),
        AgentDeps(LocalExecutor(tmp_path), Settings(_env_file=None), harness_home=tmp_path),
    )
    file = io.StringIO()
    renderer = Renderer(Console(file=file, width=100, color_system=None))
    async for event in loop.run_turn("fix add"):
        renderer.event(event)
    shown = plain(file.getvalue())
    at = next(i for i, line in enumerate(shown) if line.startswith("✓ edit(calc.py)"))
    assert shown[at].startswith("✓ edit(calc.py) · +1 -1 at line 5 · ")
    # The diff is the quote and its replacement (the call holds them), numbered where the file has them.
    assert shown[at + 1 : at + 3] == ["    5 - return a - b", "    5 + return a + b"]
    assert any(line.startswith("✓ write(notes.md) · created · 3 lines") for line in shown)
    assert "    1 # Notes" in shown


# -- before the call runs: what an approval can show -------------------------------------------


def test_an_edit_preview_numbers_the_lines_from_the_file(tmp_path: Path) -> None:
    (tmp_path / "calc.py").write_text("a = 1\nb = 2\nc = 3\n")
    preview = change_preview("edit", {"path": "calc.py", "old_string": "b = 2", "new_string": "b = 20"}, tmp_path)
    assert preview is not None
    assert plain(preview.plain) == ["    2 - b = 2", "    2 + b = 20"]


def test_a_write_over_a_file_previews_the_diff_and_a_new_file_its_first_lines(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("one\ntwo\n")
    over = change_preview("write", {"path": "notes.md", "content": "one\n2\n"}, tmp_path)
    new = change_preview("write", {"path": "fresh.md", "content": "hello\n"}, tmp_path)
    assert over is not None
    assert plain(over.plain) == ["    1   one", "    2 - two", "    2 + 2"]
    assert new is not None
    assert plain(new.plain) == ["    1 hello"]


def test_a_preview_never_reads_outside_the_workspace_nor_a_pipe(tmp_path: Path) -> None:
    workspace = tmp_path / "project"
    workspace.mkdir()
    (tmp_path / "secret.txt").write_text("token = 1\n")
    os.mkfifo(workspace / "pipe")  # reading it would block until a writer came
    outside = change_preview("edit", {"path": "../secret.txt", "old_string": "token = 1", "new_string": "x"}, workspace)
    pipe = change_preview("write", {"path": "pipe", "content": "x\n"}, workspace)
    assert outside is not None
    assert plain(outside.plain) == ["    - token = 1", "    + x"]
    assert pipe is not None
    assert plain(pipe.plain) == ["    1 x"]
    assert change_preview("bash", {"command": "ls"}, workspace) is None
