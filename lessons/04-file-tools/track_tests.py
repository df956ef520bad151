"""Lesson 04's build-along track: paths stay inside the Workspace, edits are exact and on fresh files.

`make lesson-check N=04` runs these against your copy (`make lesson-start N=04`); each test's first
docstring line is the behaviour it reports.
"""

from pathlib import Path

import pytest
from pydantic_ai import ModelRetry, RunContext
from pydantic_ai.models.test import TestModel
from pydantic_ai.usage import RunUsage

from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.processes.local import LocalExecutor
from decode.tools.edit import edit
from decode.tools.paths import resolve_path
from decode.tools.read import read


@pytest.fixture
def ctx(tmp_path: Path) -> RunContext[AgentDeps]:
    project = tmp_path / "project"
    project.mkdir()
    (project / "calc.py").write_text("def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n")
    (tmp_path / "secret.txt").write_text("key\n")
    deps = AgentDeps(executor=LocalExecutor(project), settings=Settings(_env_file=None), harness_home=project)
    return RunContext(deps=deps, model=TestModel(), usage=RunUsage())


async def test_a_path_inside_the_workspace_resolves(ctx: RunContext[AgentDeps]) -> None:
    """A path inside the Workspace resolves to its real path."""
    workspace = ctx.deps.executor.workspace
    assert await resolve_path(ctx.deps.executor, "calc.py") == workspace / "calc.py"


async def test_a_path_outside_the_workspace_is_refused(ctx: RunContext[AgentDeps]) -> None:
    """A path that leaves the Workspace, by '..', an absolute path or a symlink, is refused."""
    workspace = ctx.deps.executor.workspace
    (workspace / "link.txt").symlink_to(workspace.parent / "secret.txt")
    for raw in ("../secret.txt", str(workspace.parent / "secret.txt"), "link.txt", " "):
        with pytest.raises(ModelRetry):
            await resolve_path(ctx.deps.executor, raw)


async def test_an_edit_needs_the_file_read_first(ctx: RunContext[AgentDeps]) -> None:
    """An edit of a file not read in this session is refused: read it first."""
    with pytest.raises(ModelRetry, match="read it first"):
        await edit(ctx, "calc.py", "return a - b\n\n\ndef sub", "return a + b\n\n\ndef sub")


async def test_an_edit_of_a_file_changed_since_it_was_read_is_refused(ctx: RunContext[AgentDeps]) -> None:
    """An edit of a file changed on disk since it was read is refused: read it again."""
    await read(ctx, "calc.py")
    (ctx.deps.executor.workspace / "calc.py").write_text("changed by someone else, and longer\n")
    with pytest.raises(ModelRetry, match="changed on disk"):
        await edit(ctx, "calc.py", "changed", "CHANGED")


async def test_an_edit_replaces_exact_unique_text(ctx: RunContext[AgentDeps]) -> None:
    """An edit replaces text that matches exactly once, and says where."""
    await read(ctx, "calc.py")
    said = await edit(ctx, "calc.py", "def add(a, b):\n    return a - b", "def add(a, b):\n    return a + b")
    assert said == "Edited calc.py: replaced 1 occurrence at line 1."
    assert (ctx.deps.executor.workspace / "calc.py").read_text().startswith("def add(a, b):\n    return a + b\n")


async def test_an_ambiguous_or_missing_match_is_refused(ctx: RunContext[AgentDeps]) -> None:
    """Text that matches twice (without replace_all) or not at all is refused; the file is unchanged."""
    await read(ctx, "calc.py")
    with pytest.raises(ModelRetry, match="matches 2 times"):
        await edit(ctx, "calc.py", "return a - b", "return a + b")
    with pytest.raises(ModelRetry):
        await edit(ctx, "calc.py", "return a * b", "return a + b")
    assert (ctx.deps.executor.workspace / "calc.py").read_text().count("return a - b") == 2
    said = await edit(ctx, "calc.py", "return a - b", "return 0", replace_all=True)
    assert said == "Edited calc.py: replaced 2 occurrences."
