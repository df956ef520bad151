"""Sandboxes (lesson 14): what running a command in bubblewrap costs.

- `bash` round trip (`true`, then `echo hello`) through the tool as the agent calls it, the
  executor a bubblewrap `SandboxExecutor` against the local executor (`--sandbox none`): target
  1.5x (issue 27). A command without network runs in the warm sandbox (ADR-0111): bwrap's view
  built once, each command's own namespaces made ahead of it by the runner inside; its first
  command (which starts the warm sandbox) is among the untimed warm-up runs. ADR-0104 measured
  where a cold bwrap's time goes (not the argv: the kernel's unmount of the old root and the
  hand-offs between bwrap's processes). Skipped (nothing yielded) where bwrap is not installed:
  "not measured" in the summary.
"""

import asyncio
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from perf import Comparison, Context, Subject

if TYPE_CHECKING:
    from pydantic_ai import RunContext

    from decode.entities.deps import AgentDeps
    from decode.entities.executor import CommandExecutor


def _tool_context(workspace: Path, executor: "CommandExecutor") -> "RunContext[AgentDeps]":
    from pydantic_ai import RunContext
    from pydantic_ai.models.test import TestModel
    from pydantic_ai.usage import RunUsage

    from decode.config.settings import Settings
    from decode.entities.deps import AgentDeps

    deps = AgentDeps(executor, Settings(_env_file=None), harness_home=workspace)  # type: ignore[call-arg]
    return RunContext(deps=deps, model=TestModel(), usage=RunUsage())


def benchmarks(ctx: Context) -> Iterator[Comparison]:
    if shutil.which("bwrap") is None:
        return
    from decode.config.settings import Settings
    from decode.sandbox.backends import open_sandbox
    from decode.sandbox.types import SandboxMode
    from decode.tools.bash import bash
    from decode.tools.local import LocalExecutor

    workspace = ctx.tmp / "workspace"
    workspace.mkdir()
    loop = asyncio.new_event_loop()
    sandbox = open_sandbox(SandboxMode.BWRAP, workspace, Settings(_env_file=None))  # type: ignore[call-arg]
    loop.run_until_complete(sandbox.start())
    sandboxed = _tool_context(workspace, sandbox)
    local = _tool_context(workspace, LocalExecutor(workspace))
    for script in ("true", "echo hello"):
        yield Comparison(
            f"bash round trip: {script}",
            Subject(f"bwrap: bash({script!r})", lambda script=script: loop.run_until_complete(bash(sandboxed, script))),
            Subject(f"none: bash({script!r})", lambda script=script: loop.run_until_complete(bash(local, script))),
            target=1.5,
            runs=30,
            issue=27 if script == "true" else None,
        )
    loop.run_until_complete(sandbox.close())
    loop.close()
