"""`EscapedNames`: a path argument spelled `caf\\xe9.txt` reaches the gate and the tool as the real name."""

import os
from pathlib import Path

from pydantic_ai import RunContext
from pydantic_ai.messages import ToolCallPart
from pydantic_ai.tools import ToolDefinition

from decode.entities.deps import AgentDeps
from decode.entities.tools import traits_metadata
from decode.tools.bash import BASH
from decode.tools.escaped_names import EscapedNames, real_name
from decode.tools.read import READ

NAME = os.fsdecode(b"caf\xe9.txt")


async def before(ctx: RunContext[AgentDeps], spec_name: str, args: dict[str, object]) -> dict[str, object]:
    spec = {"read": READ, "bash": BASH}[spec_name]
    tool_def = ToolDefinition(name=spec.name, metadata=traits_metadata(spec))
    call = ToolCallPart(tool_name=spec.name, args=args)
    return await EscapedNames().before_tool_execute(ctx, call=call, tool_def=tool_def, args=args)


async def test_the_escaped_spelling_becomes_the_real_name(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / NAME).write_bytes(b"hello\n")
    assert await before(ctx, "read", {"path": "caf\\xe9.txt", "offset": 2}) == {"path": NAME, "offset": 2}


async def test_a_file_literally_named_so_wins(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "caf\\xe9.txt").write_text("a backslash in the name\n")
    (workspace / NAME).write_bytes(b"hello\n")
    assert await real_name(ctx.deps, "caf\\xe9.txt") == "caf\\xe9.txt"


async def test_a_new_file_in_a_folder_that_is_not_utf8(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / os.fsdecode(b"dir\xff")).mkdir()
    assert await real_name(ctx.deps, "dir\\xff/new.txt") == os.fsdecode(b"dir\xff/new.txt")


async def test_other_arguments_and_plain_paths_are_left_alone(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    args = {"command": "cat $'caf\\xe9.txt'"}  # bash reads the escapes itself
    assert await before(ctx, "bash", args) is args
    assert await before(ctx, "read", {"path": "plain.txt"}) == {"path": "plain.txt"}
    assert await real_name(ctx.deps, "caf\\xc3\\xa9.txt") == "caf\\xc3\\xa9.txt"  # é is never spelled so
