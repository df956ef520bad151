"""The `lsp` tool's declaration: a read, judged by `Read` and `Lsp` rules; no servers, a plain answer."""

from pathlib import Path

from pydantic_ai import RunContext

from decode.entities.deps import AgentDeps
from decode.permissions.gate import PermissionGate
from decode.permissions.rules import parse_rule
from decode.permissions.types import Decision, Mode
from decode.tools.lsp import LSP, NO_SERVER, lsp
from decode.tools.read import READ


async def test_a_read_deny_covers_lsp_and_lsp_rules_name_it(tmp_path: Path) -> None:
    rules = [parse_rule("Read(secret/**)", Decision.DENY, None), parse_rule("Lsp(vendor/**)", Decision.DENY, None)]
    gate = PermissionGate(rules, Mode.DEFAULT, workspace=tmp_path, home=tmp_path)
    for path, expected in (
        ("src/app.py", Decision.ALLOW),
        ("secret/keys.py", Decision.DENY),
        ("vendor/x.py", Decision.DENY),
    ):
        verdict = await gate.check("lsp", {"operation": "hover", "path": path, "line": 1}, LSP.traits)
        assert verdict.decision is expected, path
    # Only lsp answers to `Lsp`: read of the same file is still allowed.
    assert (await gate.check("read", {"path": "vendor/x.py"}, READ.traits)).decision is Decision.ALLOW


async def test_plan_mode_lets_it_run(tmp_path: Path) -> None:
    gate = PermissionGate([], Mode.PLAN, workspace=tmp_path, home=tmp_path)
    verdict = await gate.check("lsp", {"operation": "workspace_symbols", "path": ".", "query": "x"}, LSP.traits)
    assert verdict.decision is Decision.ALLOW


async def test_without_servers_the_model_is_told_to_use_read_and_grep(ctx: RunContext[AgentDeps]) -> None:
    assert ctx.deps.lsp is None
    assert await lsp(ctx, "definition", "app.py", line=1, character=1) == NO_SERVER
