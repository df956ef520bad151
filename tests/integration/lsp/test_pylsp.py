"""pylsp, the second server: the same tool through configuration alone (push diagnostics, no pulls)."""

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from pydantic_ai import RunContext

from decode.entities.deps import AgentDeps
from decode.tools.lsp import lsp

pytestmark = pytest.mark.integration
MakeCtx = Callable[..., RunContext[AgentDeps]]  # the `make_ctx` fixture (conftest.py)
PYLSP = Path(sys.executable).parent / "pylsp"


@pytest.mark.skipif(not PYLSP.exists(), reason="pylsp is not installed in this environment (uv sync --group dev)")
async def test_pylsp_answers_definition_hover_references_and_symbols(make_ctx: MakeCtx) -> None:
    ctx = make_ctx(servers={".py": [str(PYLSP)]})
    assert await lsp(ctx, "definition", "app.py", symbol="size") == "lib.py:1:5: def size(text: str) -> int:"
    assert "size(text: str) -> int" in await lsp(ctx, "hover", "app.py", symbol="size")
    references = await lsp(ctx, "references", "lib.py", symbol="size")
    assert 'app.py:3:14: count: int = size("abc")' in references.splitlines()
    assert "function size" in await lsp(ctx, "symbols", "lib.py")
    # No pull support: the answer is what it pushed (pylsp without linters pushes nothing).
    assert await lsp(ctx, "diagnostics", "app.py") == "app.py: no problems found."
