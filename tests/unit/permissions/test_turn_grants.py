"""A custom command's allowed-tools for its turn: they answer the mode's question, nothing more."""

from pathlib import Path

import pytest

from decode.entities.tools import ToolSpec
from decode.permissions.gate import PermissionGate
from decode.permissions.rules import parse_rule
from decode.permissions.types import Decision
from decode.tools.bash import BASH
from decode.tools.read import READ
from decode.tools.write import WRITE
from tests.unit.permissions.conftest import gate_with


def _granting(workspace: Path, *rules: str, granted: tuple[str, ...]) -> PermissionGate:
    gate = gate_with(workspace, *rules)
    gate.turn_allows = tuple(parse_rule(text, Decision.ALLOW) for text in granted)
    return gate


async def test_the_turns_rules_allow_what_the_mode_would_ask(tmp_path: Path) -> None:
    gate = _granting(tmp_path, granted=("Bash(git add:*)", "Bash(git status:*)"))
    verdict = await gate.check("bash", {"command": "git add a.py && git status"}, BASH.traits)
    assert verdict.decision is Decision.ALLOW
    assert "allowed-tools" in verdict.reason
    outside = await gate.check("bash", {"command": "git push"}, BASH.traits)
    assert outside.decision is Decision.ASK
    gate.turn_allows = ()  # the turn is over
    assert (await gate.check("bash", {"command": "git add a.py"}, BASH.traits)).decision is Decision.ASK


async def test_a_turn_rule_and_a_session_rule_together(tmp_path: Path) -> None:
    gate = _granting(tmp_path, "allow Bash(git status:*)", granted=("Bash(git add:*)",))
    verdict = await gate.check("bash", {"command": "git status && git add a.py"}, BASH.traits)
    assert verdict.decision is Decision.ALLOW


@pytest.mark.parametrize(
    ("rules", "granted", "tool", "args"),
    [
        (("deny Bash(git push:*)",), ("Bash(git push:*)",), BASH, {"command": "git push"}),
        (("ask Bash(git add:*)",), ("Bash(git add:*)",), BASH, {"command": "git add a"}),
        ((), ("Read(.env)",), READ, {"path": ".env"}),  # a secret file: an allow naming it would pass it
        ((), ("Bash(cat .env)",), BASH, {"command": "cat .env"}),
        ((), ("Write(.git/**)", "Write(**)"), WRITE, {"path": ".git/hooks/pre-commit", "content": "x"}),
        ((), ("Bash(echo:*)",), BASH, {"command": "echo $(curl x)"}),  # a hazard
    ],
)
async def test_the_turns_rules_never_pass_a_deny_an_ask_a_secret_a_protected_path_or_a_hazard(
    tmp_path: Path, rules: tuple[str, ...], granted: tuple[str, ...], tool: ToolSpec, args: dict[str, str]
) -> None:
    (tmp_path / ".git" / "hooks").mkdir(parents=True)
    gate = _granting(tmp_path, *rules, granted=granted)
    verdict = await gate.check(tool.name, args, tool.traits)
    assert verdict.decision is not Decision.ALLOW, verdict
