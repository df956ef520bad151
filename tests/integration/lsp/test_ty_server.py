"""The `lsp` tool and the post-edit diagnostics against the real `ty server`."""

from pathlib import Path

import pytest
from pydantic_ai import RunContext

from decode.entities.deps import AgentDeps
from decode.tools.edit import edit
from decode.tools.lsp import lsp
from decode.tools.paths import Refusal
from decode.tools.read import read
from decode.tools.write import write

pytestmark = pytest.mark.integration


async def test_an_edit_that_breaks_a_type_shows_the_new_error(ctx: RunContext[AgentDeps]) -> None:
    await read(ctx, "app.py")
    result = await edit(ctx, "app.py", 'size("abc")', "size(3)")
    assert result.startswith("Edited app.py: replaced 1 occurrence at line 3.")
    assert "New errors after this edit (ty):" in result
    assert "app.py:3:19: error:" in result  # the argument `3`, 1-based like read's columns
    assert "[invalid-argument-type]" in result
    # Fixing it says nothing more; and an error that was already there is not new.
    await read(ctx, "app.py")
    assert await edit(ctx, "app.py", "size(3)", 'size("abc")') == "Edited app.py: replaced 1 occurrence at line 3."


async def test_an_old_error_that_moves_is_not_new(ctx: RunContext[AgentDeps], project) -> None:
    (project / "app.py").write_text("from lib import size\n\ncount: int = size(4)\n")
    await read(ctx, "app.py")
    result = await edit(ctx, "app.py", "from lib import size\n", "from lib import size\n\n\n# spacing\n")
    assert result == "Edited app.py: replaced 1 occurrence at line 1."


async def test_a_change_breaking_a_caller_counts_its_new_errors(ctx: RunContext[AgentDeps]) -> None:
    assert await lsp(ctx, "diagnostics", "app.py") == "app.py: no problems found."  # opens app.py
    await read(ctx, "lib.py")
    result = await edit(ctx, "lib.py", "def size(text: str)", "def size(text: str, width: int)")
    assert result.endswith("1 new error in other files: app.py (1)")
    assert "New errors" not in result  # lib.py itself is fine


async def test_a_new_file_with_an_error_shows_it(ctx: RunContext[AgentDeps]) -> None:
    result = await write(ctx, "new.py", "from lib import size\n\nsize(b'bytes')\n")
    assert result.startswith("Created new.py (3 lines).")
    assert "new.py:3:6: error:" in result


async def test_definition_across_files(ctx: RunContext[AgentDeps]) -> None:
    by_position = await lsp(ctx, "definition", "app.py", line=3, character=14)
    assert by_position == "lib.py:1:5: def size(text: str) -> int:"
    assert await lsp(ctx, "definition", "app.py", symbol="size") == "lib.py:1:5: def size(text: str) -> int:"


async def test_references_hover_and_symbols(ctx: RunContext[AgentDeps]) -> None:
    references = (await lsp(ctx, "references", "lib.py", line=1, character=5)).splitlines()
    assert "lib.py:1:5: def size(text: str) -> int:" in references
    assert "app.py:1:17: from lib import size" in references
    assert 'app.py:3:14: count: int = size("abc")' in references
    hover = await lsp(ctx, "hover", "app.py", symbol="size")
    assert "def size(text: str) -> int" in hover
    assert await lsp(ctx, "symbols", "lib.py") == "lib.py:\n1:5 function size"


async def test_workspace_symbols_hide_secret_files(ctx: RunContext[AgentDeps], project: Path) -> None:
    found = await lsp(ctx, "workspace_symbols", query="size")
    assert found.splitlines()[0] == "lib.py:1:1: function size: def size(text: str) -> int:"
    assert "secret" not in found
    assert "hunter2" not in found
    (project / "uses_secret.py").write_text("from secret_key import size_of_the_key\n\nsize_of_the_key()\n")
    with pytest.raises(Refusal, match="defined in a file the permission rules keep from reads"):
        await lsp(ctx, "hover", "uses_secret.py", line=3, character=1)  # its signature, its docstring
    definition = await lsp(ctx, "definition", "uses_secret.py", line=3, character=1)
    assert definition == "No definition found."
    references = await lsp(ctx, "references", "secret_key.py", symbol="size_of_the_key")
    assert "secret_key.py" not in references  # the gate judges `path` itself; results are filtered too


async def test_a_definition_outside_the_workspace_is_not_shown(ctx: RunContext[AgentDeps], project) -> None:
    (project / "uses_os.py").write_text("import os\n\nos.getcwd()\n")
    assert await lsp(ctx, "definition", "uses_os.py", line=3, character=4) == (
        "(1 outside the working directory not shown)"
    )


async def test_a_symlink_out_of_the_workspace_leaks_nothing(ctx: RunContext[AgentDeps], project: Path) -> None:
    outside = project.parent / "outside"
    outside.mkdir()
    (outside / "private.py").write_text("def private_helper() -> str:\n    return 'do not show'\n")
    (project / "linked.py").symlink_to(outside / "private.py")
    (project / "calls.py").write_text("from linked import private_helper\n\nprivate_helper()\n")
    answer = await lsp(ctx, "definition", "calls.py", line=3, character=1)
    assert answer == "(1 outside the working directory not shown)"
    with pytest.raises(Refusal, match="outside the working directory"):
        await lsp(ctx, "symbols", "linked.py")


async def test_diagnostics_of_a_file(ctx: RunContext[AgentDeps], project) -> None:
    (project / "bad.py").write_text("x: int = 'a'\n")
    result = await lsp(ctx, "diagnostics", "bad.py")
    assert result.startswith("bad.py: 1 error\nbad.py:1:10: error:")


async def test_bad_input_gets_a_clear_answer(ctx: RunContext[AgentDeps], project) -> None:
    (project / "blob.py").write_bytes(b"\x00\x01\x02binary")
    with pytest.raises(Refusal, match="not a text file"):
        await lsp(ctx, "symbols", "blob.py")
    with pytest.raises(Refusal, match="outside the working directory"):
        await lsp(ctx, "definition", "../elsewhere.py", line=1, character=1)
    with pytest.raises(Refusal, match=r"line 40 is outside app\.py, which has 3 lines"):
        await lsp(ctx, "hover", "app.py", line=40, character=1)
    with pytest.raises(Refusal, match="character 99 is outside line 1"):
        await lsp(ctx, "hover", "app.py", line=1, character=99)
    with pytest.raises(Refusal, match=r"'nowhere' does not appear in app\.py"):
        await lsp(ctx, "definition", "app.py", symbol="nowhere")
    (project / "README.md").write_text("# hi\n")
    answer = await lsp(ctx, "symbols", "README.md")
    assert answer == "No language server handles .md. Use read, grep and glob instead."
