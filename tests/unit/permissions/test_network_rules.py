"""`Network(...)` rules: a sandboxed command that asks for the network (lesson 17, ADR-0063).

The bypass corpus (class `network`) holds the tricks; here: the rule language, what "always"
saves, and that nothing changes where no sandbox isolates the network.
"""

from pathlib import Path

import pytest

from decode.permissions.gate import PermissionGate
from decode.permissions.network_rules import network_pattern_problem
from decode.permissions.rules import RuleError, parse_rule
from decode.permissions.types import Decision, Mode
from decode.tools.bash import BASH


def sandboxed(tmp_path: Path, *rules: str, mode: Mode = Mode.DEFAULT) -> PermissionGate:
    parsed = [parse_rule(text, Decision(action)) for action, text in (rule.split(" ", 1) for rule in rules)]
    gate = PermissionGate(parsed, mode, workspace=tmp_path)
    gate.network_isolated = True
    return gate


def call(command: str, network: bool = True) -> dict[str, object]:
    return {"command": command, "network": network}


def test_network_rules_read_like_bash_rules() -> None:
    rule = parse_rule("network(npm install:*)", Decision.ALLOW)
    assert (rule.tool, rule.specifier) == ("Network", "npm install:*")
    assert parse_rule("Network", Decision.DENY).specifier is None
    with pytest.raises(RuleError, match="cannot be read"):
        parse_rule("Network(npm 'install)", Decision.ALLOW)


async def test_a_network_call_needs_both_rules(tmp_path: Path) -> None:
    gate = sandboxed(tmp_path, "allow Bash(npm install:*)")
    verdict = await gate.check("bash", call("npm install left-pad"), BASH.traits)
    assert verdict.decision is Decision.ASK
    assert "network for npm install left-pad: no rule allows it" in verdict.reason
    assert (await gate.check("bash", call("npm install left-pad", network=False), BASH.traits)).decision is (
        Decision.ALLOW
    )
    gate = sandboxed(tmp_path, "allow Bash(npm install:*)", "allow Network(npm install:*)")
    assert (await gate.check("bash", call("npm install left-pad"), BASH.traits)).decision is Decision.ALLOW


async def test_a_network_deny_wins_in_every_mode(tmp_path: Path) -> None:
    gate = sandboxed(tmp_path, "allow Bash(curl:*)", "deny Network(curl:*)", mode=Mode.BYPASS)
    verdict = await gate.check("bash", call("curl https://example.com"), BASH.traits)
    assert verdict.decision is Decision.DENY
    assert "denied by Network(curl:*)" in verdict.reason
    assert (await gate.check("bash", call("curl https://example.com", False), BASH.traits)).decision is (Decision.ALLOW)


async def test_without_an_isolating_sandbox_the_argument_changes_nothing(tmp_path: Path) -> None:
    gate = PermissionGate([parse_rule("Bash(npm install:*)", Decision.ALLOW)], workspace=tmp_path)
    assert (await gate.check("bash", call("npm install left-pad"), BASH.traits)).decision is Decision.ALLOW


async def test_always_saves_the_network_rule_too(tmp_path: Path) -> None:
    gate = sandboxed(tmp_path)
    assert await gate.narrowest_rules("bash", call("npm install left-pad"), BASH.traits) == [
        "Bash(npm install left-pad)",
        "Network(npm install left-pad)",
    ]
    assert await gate.narrowest_rules("bash", call("npm install left-pad", False), BASH.traits) == [
        "Bash(npm install left-pad)"
    ]
    choices = await gate.rule_choices("bash", call("npm install left-pad"), BASH.traits)
    assert all(any(rule.startswith("Network(") for rule in choice) for choice in choices)


async def test_a_subagents_gate_keeps_the_isolation(tmp_path: Path) -> None:
    child = sandboxed(tmp_path, "allow Bash(npm install:*)").fenced(Mode.DEFAULT)
    assert child.network_isolated
    assert (await child.check("bash", call("npm install left-pad"), BASH.traits)).decision is Decision.ASK


@pytest.mark.parametrize(("specifier", "problem"), [("*", None), ("npm install:*", None), ("'npm", "cannot be read")])
def test_a_network_specifier_is_a_command_pattern(specifier: str, problem: str | None) -> None:
    found = network_pattern_problem("Network", specifier)
    assert found is None if problem is None else problem in (found or "")
