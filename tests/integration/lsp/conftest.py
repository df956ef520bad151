"""A small Python project, and the context the tools get, with the real `ty server` behind `deps.lsp`."""

import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from pydantic_ai import RunContext
from pydantic_ai.models.test import TestModel
from pydantic_ai.usage import RunUsage

from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.lsp.manager import LspManager
from decode.permissions.gate import PermissionGate
from decode.processes.local import LocalExecutor

BIN = Path(sys.executable).parent
LIB = "def size(text: str) -> int:\n    return len(text)\n"
APP = 'from lib import size\n\ncount: int = size("abc")\n'
SECRET = "def size_of_the_key() -> str:\n    return 'hunter2'\n"

MakeCtx = Callable[..., RunContext[AgentDeps]]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / "lib.py").write_text(LIB)
    (root / "app.py").write_text(APP)
    (root / "secret_key.py").write_text(SECRET)
    return root


@pytest.fixture
async def make_ctx(project: Path) -> AsyncIterator[MakeCtx]:
    """`make_ctx(servers=…, timeout=…, edit_timeout=…)`: a tool context whose servers are stopped after the test."""
    managers: list[LspManager] = []

    def make(
        servers: dict[str, list[str]] | None = None, timeout: float = 20.0, edit_timeout: float = 20.0
    ) -> RunContext[AgentDeps]:
        executor = LocalExecutor(project)
        manager = LspManager(executor, servers, timeout=timeout)
        managers.append(manager)
        gate = PermissionGate.from_settings(project, realpath=executor.realpath, secret_files=["secret_*.py"])
        settings = Settings(lsp_edit_timeout=edit_timeout)
        deps = AgentDeps(executor, settings, harness_home=project, search_filter=gate, lsp=manager)
        return RunContext(deps=deps, model=TestModel(), usage=RunUsage(), tool_call_id="call-1")

    yield make
    for manager in managers:
        await manager.close()


@pytest.fixture
def ctx(make_ctx: MakeCtx) -> RunContext[AgentDeps]:
    """With `ty server` (the default for Python)."""
    return make_ctx()


def manager_of(ctx: RunContext[AgentDeps]) -> LspManager:
    """The LSP manager a test's context holds."""
    assert isinstance(ctx.deps.lsp, LspManager)
    return ctx.deps.lsp
