"""Sandboxes (lesson 17): what running a command in bubblewrap costs.

- `bash` round trip (`true`, then `echo hello`) through the tool as the agent calls it, the
  executor a bubblewrap `SandboxExecutor` against the local executor (`--sandbox none`): target
  1.5x (issue 27). A command without network runs in the warm sandbox (ADR-0111): bwrap's view
  built once, each command's own namespaces made ahead of it by the runner inside; its first
  command (which starts the warm sandbox) is among the untimed warm-up runs. ADR-0104 measured
  where a cold bwrap's time goes (not the argv: the kernel's unmount of the old root and the
  hand-offs between bwrap's processes). Skipped (nothing yielded) where bwrap is not installed:
  "not measured" in the summary.
- the floor under it (`handoff_floor.py`, in a process of its own): `bash -c true` handed to a
  process made ahead (in namespaces of its own, as the runner's pid 1) over a bare spawn of it, and
  what making those namespaces costs per command (off the command's path). What the warm sandbox
  pays beyond that floor is its own work on the command's path (ADR-0111's last amendment).
"""

import asyncio
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from perf import Comparison, Context, Figure, Subject, ratio

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


def benchmarks(ctx: Context) -> Iterator[Comparison | Figure]:
    if shutil.which("bwrap") is None:
        return
    from decode.config.settings import Settings
    from decode.processes.local import LocalExecutor
    from decode.sandbox.backends import open_sandbox
    from decode.sandbox.types import SandboxMode
    from decode.tools.bash import bash

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
    yield from floor(ctx)


def floor(ctx: Context, rounds: int = 60) -> Iterator[Figure]:
    """The hand-off floor (see the module docstring), measured in a fresh process: it forks."""
    script = Path(__file__).with_name("handoff_floor.py")
    done = subprocess.run([sys.executable, str(script), str(rounds)], capture_output=True, text=True, check=False)
    if done.returncode != 0:  # no unshare here (no user namespaces): nothing to say
        return
    medians = json.loads(done.stdout)
    spawn = medians["spawn"]
    note = f"bash -c true spawned and waited for: {spawn * 1e3:.2f} ms"
    yield ratio("floor: hand-off to a process made ahead / spawn", medians["handoff"] / spawn, 1.5, note=note)
    made = f"; making those namespaces: {medians['namespaces'] / spawn:.2f}x spawn, off the command's path"
    yield ratio(
        "floor: hand-off to pid 1 of namespaces made ahead / spawn",
        medians["handoff_namespaces"] / spawn,
        1.5,
        note=note + made,
    )
