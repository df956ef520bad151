"""`write`: atomic, creates parents, keeps mode/line endings/BOM, never overwrites unseen work."""

import os
import stat
from pathlib import Path

import pytest
from pydantic_ai import RunContext, ToolFailed

from decode.entities.deps import AgentDeps
from decode.tools.read import read
from decode.tools.write import write


async def test_creates_a_file_and_its_parent_directories(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    assert await write(ctx, "src/pkg/new.py", "x = 1\n") == "Created src/pkg/new.py (1 line)."
    assert (workspace / "src/pkg/new.py").read_text() == "x = 1\n"


async def test_new_files_get_the_usual_mode_and_no_temporary_file_is_left(
    ctx: RunContext[AgentDeps], workspace: Path
) -> None:
    await write(ctx, "a.txt", "hello")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE((workspace / "a.txt").stat().st_mode) == 0o666 & ~umask
    assert os.listdir(workspace) == ["a.txt"]


async def test_overwriting_needs_a_read_first(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "notes.md").write_text("the user's notes\n")
    with pytest.raises(ToolFailed, match="has not been read"):
        await write(ctx, "notes.md", "gone\n")
    assert (workspace / "notes.md").read_text() == "the user's notes\n"
    await read(ctx, "notes.md")
    assert await write(ctx, "notes.md", "new\n") == "Replaced notes.md (1 line)."


async def test_overwriting_keeps_mode_line_endings_and_bom(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    script = workspace / "run.sh"
    script.write_bytes(b"\xef\xbb\xbfecho one\r\n")
    script.chmod(0o755)
    await read(ctx, "run.sh")
    await write(ctx, "run.sh", "echo two\necho three\n")
    assert script.read_bytes() == b"\xef\xbb\xbfecho two\r\necho three\r\n"
    assert stat.S_IMODE(script.stat().st_mode) == 0o755


async def test_a_file_written_may_be_written_again_without_a_read(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    await write(ctx, "a.txt", "one")
    await write(ctx, "a.txt", "two")
    assert (workspace / "a.txt").read_text() == "two"


async def test_directories_and_outside_paths_are_refused(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "src").mkdir()
    with pytest.raises(ToolFailed, match="is a directory"):
        await write(ctx, "src", "x")
    with pytest.raises(ToolFailed, match="outside the working directory"):
        await write(ctx, "../escape.txt", "x")
    assert not (workspace.parent / "escape.txt").exists()
