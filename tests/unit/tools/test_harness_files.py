"""`harness:` paths: the tools reach the harness's own files (saved output, skills) on its side."""

from pathlib import Path

import pytest
from pydantic_ai import RunContext, ToolFailed

from decode.entities.deps import AgentDeps
from decode.tools.grep import grep
from decode.tools.harness_files import locate
from decode.tools.read import read
from decode.tools.truncate import shorten


def saved_output(ctx: RunContext[AgentDeps], lines: int) -> str:
    """Shorten a long text the way a tool does; the `harness:` path the note names."""
    text = "".join(f"line {n}\n" for n in range(1, lines + 1))
    note = shorten(text, 200, harness_home=ctx.deps.harness_home, label="bash-stdout")
    return next(word for word in note.split() if word.startswith("harness:"))


async def test_the_note_of_a_shortened_output_names_a_path_read_can_open(ctx: RunContext[AgentDeps]) -> None:
    name = saved_output(ctx, 500)
    assert name.startswith("harness:tool-output/")
    page = await read(ctx, name, offset=499)
    assert page.splitlines()[0].split("\t") == ["   499", "line 499"]
    assert "more follow" not in page


async def test_grep_searches_a_saved_output_and_shows_it_under_its_harness_name(ctx: RunContext[AgentDeps]) -> None:
    name = saved_output(ctx, 500)
    found = await grep(ctx, "^line 42$", path=name, output_mode="content")
    assert found == f"{name}:42:line 42"


async def test_a_harness_path_that_climbs_out_of_its_folder_is_refused(ctx: RunContext[AgentDeps]) -> None:
    (ctx.deps.harness_home / "secret.txt").write_text("key\n")
    saved_output(ctx, 500)
    with pytest.raises(ToolFailed, match="outside"):
        await read(ctx, "harness:tool-output/../../secret.txt")


async def test_a_symlink_in_the_harness_folder_cannot_lead_elsewhere(
    ctx: RunContext[AgentDeps], tmp_path: Path
) -> None:
    name = saved_output(ctx, 500)
    folder = (await locate(ctx.deps, name))[1].parent
    outside = tmp_path / "outside.txt"
    outside.write_text("not the harness's\n")
    (folder / "link.txt").symlink_to(outside)
    with pytest.raises(ToolFailed, match="symlink"):
        await read(ctx, "harness:tool-output/link.txt")


async def test_an_unknown_harness_folder_is_a_retry_naming_the_known_ones(ctx: RunContext[AgentDeps]) -> None:
    with pytest.raises(ToolFailed, match="harness:tool-output/"):
        await read(ctx, "harness:nowhere/x.txt")


async def test_a_missing_saved_output_says_so(ctx: RunContext[AgentDeps]) -> None:
    saved_output(ctx, 500)
    with pytest.raises(ToolFailed, match="does not exist"):
        await read(ctx, "harness:tool-output/gone.txt")


async def test_a_skill_file_is_reached_by_the_skill_name(ctx: RunContext[AgentDeps]) -> None:
    import decode.skills.tool  # noqa: F401  (adds the `skills` root)

    page = await read(ctx, "harness:skills/commit/SKILL.md", limit=2)
    assert "name: commit" in page
    assert "harness:skills/commit/SKILL.md" in page
