"""Claude Code's rule spellings mean in decode what its documentation says they mean (issue 25)."""

import tomllib
from pathlib import Path
from typing import Any

import pytest

from decode.agents.subagents import AGENT_TRAITS
from decode.entities.tools import ToolKind, ToolTraits
from decode.permissions.gate import PermissionGate
from decode.permissions.rules import ForeignRule, RuleError, parse_rule
from decode.permissions.types import Decision, Mode
from decode.tools.catalog import default_tools

CASES: list[dict[str, Any]] = tomllib.loads(
    Path(__file__).with_name("claude_code_spellings.toml").read_text(encoding="utf-8")
)["case"]
CATALOG: dict[str, ToolTraits] = {spec.name: spec.traits for spec in default_tools()}


def traits_of(tool: str) -> ToolTraits:
    """decode's tools declare their traits; an MCP tool answers to its own name."""
    if tool == "agent":
        return AGENT_TRAITS
    return CATALOG.get(tool) or ToolTraits(ToolKind.OTHER, rules=(tool,))


def _id(case: dict[str, Any]) -> str:
    return f"{case['rule']} / {case.get('arg', '')}"


@pytest.mark.parametrize("case", [c for c in CASES if c["expect"] != "error"], ids=_id)
async def test_a_spelling_gives_the_documented_verdict(case: dict[str, Any], tmp_path: Path) -> None:
    workspace, home = tmp_path / "ws", tmp_path / "home"
    workspace.mkdir()
    home.mkdir()
    action, text = case["rule"].split(" ", 1)
    gate = PermissionGate(
        [parse_rule(text, Decision(action))],
        Mode.parse(case.get("mode", "default")),
        workspace=workspace,
        home=home,
    )
    traits = traits_of(case["tool"])
    argument = case["arg"].replace("{workspace}", str(workspace)).replace("{home}", str(home))
    key = traits.command or traits.url or traits.path or traits.subject
    args = {key: argument} if key else {}

    verdict = await gate.check(case["tool"], args, traits)

    assert verdict.decision is Decision(case["expect"]), verdict.reason


@pytest.mark.parametrize("case", [c for c in CASES if c["expect"] == "error"], ids=_id)
def test_a_spelling_decode_cannot_honour_is_an_error_saying_why(case: dict[str, Any]) -> None:
    action, text = case["rule"].split(" ", 1)
    with pytest.raises(RuleError, match=case["error"]) as raised:
        parse_rule(text, Decision(action))
    assert isinstance(raised.value, ForeignRule) is case.get("foreign", False)


def test_the_corpus_covers_each_family_and_verdict() -> None:
    assert len(CASES) >= 40
    assert {case["expect"] for case in CASES} == {"allow", "ask", "deny", "error"}
    rules = " ".join(case["rule"] for case in CASES)
    for spelling in (":*)", " *)", "*appsettings*", "(~/", "(//", "(./", "**", "domain:", "mcp__", "__*"):
        assert spelling in rules, spelling
    assert all(case.get("doc") for case in CASES)
