"""Paths stay inside the Workspace: `..`, outside absolute paths and escaping symlinks are refused.

Text that cannot be a path (a NUL byte, names or paths over the system's limits) asks for a retry;
a path the system cannot resolve (a symlink loop, a failing `realpath`) is an answer the model
reads. Neither ever escapes a tool as another exception (that would end the run). Symlinks are
followed by `executor.realpath`: every test runs against both executors.
"""

import contextlib
import errno
import os
from pathlib import Path

import pytest
from pydantic_ai import ModelRetry, RunContext, ToolFailed
from pydantic_ai.models.test import TestModel
from pydantic_ai.usage import RunUsage

from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.entities.executor import CommandExecutor
from decode.processes.local import LocalExecutor
from decode.tools.edit import edit
from decode.tools.glob import glob
from decode.tools.grep import grep
from decode.tools.paths import Refusal, display_path, resolve_path
from decode.tools.read import read
from decode.tools.write import write


@pytest.fixture
def executor(executor: CommandExecutor, workspace: Path) -> CommandExecutor:
    (workspace / "src").mkdir()
    (workspace / "src/a.py").write_text("")
    return executor


async def test_relative_and_inside_absolute_paths_resolve(executor: CommandExecutor, workspace: Path) -> None:
    assert await resolve_path(executor, "src/a.py") == executor.workspace / "src/a.py"
    assert await resolve_path(executor, str(workspace / "src/a.py")) == executor.workspace / "src/a.py"
    assert await resolve_path(executor, "src/../src/a.py") == executor.workspace / "src/a.py"
    assert await resolve_path(executor, "new/file.txt") == executor.workspace / "new/file.txt"


@pytest.mark.parametrize("raw", ["../outside.txt", "src/../../outside.txt", "/etc/passwd"])
async def test_paths_leaving_the_workspace_are_refused(executor: CommandExecutor, raw: str) -> None:
    with pytest.raises(ToolFailed, match="outside the working directory"):  # an answer, not a failed attempt
        await resolve_path(executor, raw)


async def test_an_empty_path_is_a_malformed_argument(executor: CommandExecutor) -> None:
    with pytest.raises(ModelRetry, match="empty") as caught:
        await resolve_path(executor, "   ")
    assert not isinstance(caught.value, ToolFailed)


def test_a_refusal_is_a_tool_failure_that_old_code_still_catches_as_a_retry() -> None:
    refusal = Refusal("outside the working directory")
    assert isinstance(refusal, ToolFailed)  # what pydantic-ai checks first: an answer, not counted
    assert isinstance(refusal, ModelRetry)  # `except ModelRetry` (lesson 04) still catches it
    assert str(refusal) == refusal.message == "outside the working directory"


async def test_symlinks_that_leave_the_workspace_are_refused(executor: CommandExecutor, workspace: Path) -> None:
    secret = workspace.parent / "secret.txt"
    secret.write_text("outside")
    (workspace / "innocent.txt").symlink_to(secret)
    (workspace / "escape").symlink_to(workspace.parent)
    with pytest.raises(ToolFailed, match=r"is a symlink to .*outside the working directory"):
        await resolve_path(executor, "innocent.txt")
    with pytest.raises(ToolFailed, match="outside the working directory"):
        await resolve_path(executor, "escape/secret.txt")


async def test_symlinks_within_the_workspace_are_followed(executor: CommandExecutor, workspace: Path) -> None:
    (workspace / "alias.py").symlink_to(workspace / "src/a.py")
    (workspace / "folder").symlink_to(workspace / "src")
    assert await resolve_path(executor, "alias.py") == executor.workspace / "src/a.py"
    assert await resolve_path(executor, "folder/new.py") == executor.workspace / "src/new.py"


def test_display_path_is_relative_to_the_workspace(executor: CommandExecutor, workspace: Path) -> None:
    assert display_path(executor, executor.workspace / "src/a.py") == "src/a.py"
    assert display_path(executor, executor.workspace) == "."


# -- text no path can be, and paths the system cannot resolve: a tool error, never a crash -----

MALFORMED = {  # a malformed argument: a retry (counted), with a message that says what is wrong
    "nul": ("a\0b.txt", "contains a NUL byte"),
    "nul-in-a-folder": ("src\0/a.py", "contains a NUL byte"),
    "long-name": ("n" * 256, "256 bytes long; a file name holds at most 255 bytes"),
    "long-multibyte-name": ("é" * 128, "256 bytes long; a file name holds at most 255 bytes"),
    "long-path": ("/".join(["d" * 200] * 21), "a path holds at most 4,095"),
    "surrogate": ("a\ud800.txt", "unpaired surrogate"),
}
UNRESOLVABLE = {  # fine as text, but the system cannot follow it: an answer (not counted)
    "loop": ("loop1", "loops back on itself"),
    "inside-a-loop": ("loop1/x.txt", "loops back on itself"),
    "self-loop": ("self/x.txt", "loops back on itself"),
}
TOOLS = {
    "read": lambda ctx, p: read(ctx, p),
    "write": lambda ctx, p: write(ctx, p, "x\n"),
    "edit": lambda ctx, p: edit(ctx, p, "a", "b"),
    "glob": lambda ctx, p: glob(ctx, "*", path=p),
    "grep": lambda ctx, p: grep(ctx, "x", path=p),
}


@pytest.fixture
def loops(workspace: Path) -> Path:
    (workspace / "loop1").symlink_to(workspace / "loop2")
    (workspace / "loop2").symlink_to(workspace / "loop1")
    (workspace / "self").symlink_to(workspace / "self")
    return workspace


@pytest.mark.parametrize("tool", list(TOOLS))
@pytest.mark.parametrize("kind", list(MALFORMED))
async def test_text_no_path_can_be_asks_for_a_retry_in_every_file_tool(
    ctx: RunContext[AgentDeps], loops: Path, tool: str, kind: str
) -> None:
    raw, message = MALFORMED[kind]
    with pytest.raises(ModelRetry, match=message) as caught:
        await TOOLS[tool](ctx, raw)
    assert not isinstance(caught.value, ToolFailed)  # a retry pydantic-ai counts, not a refusal
    assert sorted(os.listdir(loops)) == ["loop1", "loop2", "self", "src"]  # nothing was written


@pytest.mark.parametrize("tool", list(TOOLS))
@pytest.mark.parametrize("kind", list(UNRESOLVABLE))
async def test_a_symlink_loop_is_an_answer_in_every_file_tool(
    ctx: RunContext[AgentDeps], loops: Path, tool: str, kind: str
) -> None:
    raw, message = UNRESOLVABLE[kind]
    if isinstance(ctx.deps.executor, LocalExecutor):
        with pytest.raises(ToolFailed, match=f"{raw} cannot be resolved: a symbolic link in it {message}"):
            await TOOLS[tool](ctx, raw)
        assert sorted(os.listdir(loops)) == ["loop1", "loop2", "self", "src"]
        return
    # The seam's default `realpath -m` leaves a loop unresolved: the path is then "not there", a
    # refusal too (or, for `write` of the looping link itself, a file that replaces the link).
    with contextlib.suppress(ToolFailed):
        await TOOLS[tool](ctx, raw)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda ctx: glob(ctx, "*\0.py"), "The pattern '\\*\\\\x00.py' contains a NUL byte"),
        (lambda ctx: grep(ctx, "a\0b"), "The pattern 'a\\\\x00b' contains a NUL byte"),
        (lambda ctx: grep(ctx, "x", glob="*.p\0y"), "The glob .* contains a NUL byte"),
        (lambda ctx: grep(ctx, "\udc00x"), "unpaired surrogate"),
    ],
)
async def test_patterns_no_program_can_take_ask_for_a_retry(ctx: RunContext[AgentDeps], call, message: str) -> None:
    with pytest.raises(ModelRetry, match=message) as caught:
        await call(ctx)
    assert not isinstance(caught.value, ToolFailed)


class BrokenRealpath(LocalExecutor):
    """A backend whose `realpath` fails (an I/O error, a folder it may not search)."""

    async def realpath(self, path: Path) -> Path:
        raise OSError(errno.EIO, "Input/output error", str(path))


@pytest.mark.parametrize("tool", list(TOOLS))
async def test_a_failing_realpath_is_an_answer_in_every_file_tool(workspace: Path, tool: str) -> None:
    deps = AgentDeps(BrokenRealpath(workspace), Settings(), harness_home=workspace)
    ctx = RunContext(deps=deps, model=TestModel(), usage=RunUsage(), tool_call_id="call-1")
    with pytest.raises(ToolFailed, match=r"a\.txt cannot be resolved: input/output error"):
        await TOOLS[tool](ctx, "a.txt")


async def test_a_path_that_grows_too_long_through_a_symlink_is_an_answer(
    executor: CommandExecutor, workspace: Path
) -> None:
    # Over 4,000 bytes once resolved, each name allowed: built a step at a time from inside, since
    # the whole path may be too long for one system call wherever the test folder lies.
    import os

    parent = os.open(workspace, os.O_DIRECTORY)
    for _ in range(16):
        os.mkdir("d" * 250, dir_fd=parent)
        child = os.open("d" * 250, os.O_DIRECTORY, dir_fd=parent)
        os.close(parent)
        parent = child
    os.close(parent)
    (workspace / "short").symlink_to("/".join(["d" * 250] * 16))  # relative: a target holds < 4,096 bytes
    with pytest.raises(ToolFailed, match="long once its symlinks are followed; a path holds at most 4,095"):
        await resolve_path(executor, "short/" + "n" * 200)


async def test_an_added_dir_is_a_root_too_and_nothing_else_is(executor: CommandExecutor, tmp_path: Path) -> None:
    other = (tmp_path / "other").resolve()
    other.mkdir()
    (other / "notes.txt").write_text("x")
    with pytest.raises(Refusal, match="outside the working directory"):
        await resolve_path(executor, str(other / "notes.txt"))
    executor.more_roots = (other,)
    assert await resolve_path(executor, str(other / "notes.txt")) == other / "notes.txt"
    with pytest.raises(Refusal, match="outside the working directory"):
        await resolve_path(executor, str(tmp_path / "third.txt"))
    await executor.write_atomic(other / "made.txt", b"made\n")  # confined to its own root, not the Workspace's
    assert (other / "made.txt").read_bytes() == b"made\n"
