"""Fixtures for the tool tests: a real workspace directory and the context a tool receives.

The file tools run against both kinds of executor (the `executor` fixture): the local one, with
direct I/O, and `RunOnlyExecutor`, which has only `run` and `spawn` and so uses every default
file operation of the seam (POSIX tools through `run`), as a sandbox backend would.
"""

import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pytest
from pydantic_ai import RunContext
from pydantic_ai.models.test import TestModel
from pydantic_ai.usage import RunUsage

from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.entities.events import ToolOutputDelta
from decode.entities.executor import CommandExecutor, ExecRequest, ExecResult, Process
from decode.permissions.gate import PermissionGate
from decode.permissions.rules import parse_rule
from decode.permissions.types import Decision
from decode.processes.local import LocalExecutor
from decode.processes.run import run_process


class RunOnlyExecutor(CommandExecutor):
    """The two required methods and nothing else: every file operation is the seam's default."""

    def __init__(self, workspace: Path) -> None:
        self._local = LocalExecutor(workspace)  # for its command environment and `spawn`
        self.workspace = self._local.workspace

    async def run(self, request: ExecRequest) -> ExecResult:
        return await run_process(request.with_defaults(cwd=self.workspace, env=self._local.env))

    async def spawn(
        self, argv: Sequence[str], *, cwd: Path | None = None, env: Mapping[str, str] | None = None
    ) -> Process:
        return await self._local.spawn(argv, cwd=cwd, env=env)


EXECUTORS: dict[str, Callable[[Path], CommandExecutor]] = {"local": LocalExecutor, "run-only": RunOnlyExecutor}


@pytest.fixture(params=list(EXECUTORS))
def executor(request: pytest.FixtureRequest, workspace: Path) -> CommandExecutor:
    """The Workspace's executor: each test that uses it runs once per kind."""
    return EXECUTORS[request.param](workspace)


@pytest.fixture
def streamed() -> list[ToolOutputDelta]:
    """What the tools streamed to the front end."""
    return []


@pytest.fixture
def deps(executor: CommandExecutor, workspace: Path, streamed: list[ToolOutputDelta]) -> AgentDeps:
    """What a tool gets as `ctx.deps`: `AgentDeps(LocalExecutor(workspace), …)`, or the run-only executor."""
    return AgentDeps(executor, Settings(), harness_home=workspace, on_tool_output=streamed.append)


@pytest.fixture
def ctx(deps: AgentDeps) -> RunContext[AgentDeps]:
    """The context pydantic-ai hands a tool (a real one, with a placeholder model)."""
    return RunContext(deps=deps, model=TestModel(), usage=RunUsage(), tool_call_id="call-1")


@pytest.fixture
def tree(workspace: Path) -> Path:
    """A small repository with what trips up file listing: ignore rules, hidden files, symlinks,
    binaries, CRLF and BOM text."""
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    files = {
        ".gitignore": "*.log\nbuild/\n!keep.log\n/top-only.txt\n",
        "README.md": "# demo\nTODO: write docs\n",
        "app.log": "TODO in a log\n",
        "keep.log": "TODO kept log\n",
        "top-only.txt": "TODO ignored at the top\n",
        "src/top-only.txt": "TODO not ignored here\n",
        "src/main.py": "import os\n\ndef main():\n    # TODO: parse args\n    print('hi')\n\n\nmain()\n",
        "src/util.py": "def helper():\n    return 'todo lower case'\n",
        "src/.gitignore": "generated.py\n",
        "src/generated.py": "TODO generated\n",
        "src/pkg/deep.py": "x = 1  # TODO deep\n",
        "build/out.py": "TODO built\n",
        ".github/ci.yml": "run: TODO\n",
        "docs/win.txt": "first\r\nTODO crlf\r\nlast\r\n",
        "docs/bom.txt": "\ufeffTODO with bom\n",
    }
    for name, text in files.items():
        path = workspace / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    (workspace / "data.bin").write_bytes(b"\x00\x01TODO\x00")
    (workspace / "link.py").symlink_to(workspace / "src/main.py")
    return workspace


class CountingGate(PermissionGate):
    """A real Permission Gate that counts the paths a search asks it about."""

    asked = 0

    async def hidden(self, paths: Sequence[Path]) -> set[Path]:
        self.asked += len(paths)
        return await super().hidden(paths)


@pytest.fixture
def gated(workspace: Path) -> tuple[RunContext[AgentDeps], CountingGate]:
    """A tool context whose Search Filter is a counting gate denying reads of `secret/`."""
    gate = CountingGate([parse_rule("Read(secret/**)", Decision.DENY)], workspace=workspace, home=workspace / "home")
    deps = AgentDeps(LocalExecutor(workspace), Settings(), harness_home=workspace, search_filter=gate)
    return RunContext(deps=deps, model=TestModel(), usage=RunUsage(), tool_call_id="call-1"), gate
