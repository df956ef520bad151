"""The fixed order of a verdict: a deny on any part wins, then plan mode, asks, secrets, bypass, hazards, allows."""

from pathlib import Path

from decode.entities.tools import ToolKind
from decode.permissions.decision_order import PLAN_GUIDANCE, Part, finish
from decode.permissions.gate import PermissionGate
from decode.permissions.rules import parse_rule
from decode.permissions.types import Decision, Mode


def gate(tmp_path: Path, *rules: str, mode: Mode = Mode.DEFAULT) -> PermissionGate:
    parsed = [parse_rule(text, Decision(action)) for action, text in (rule.split(" ", 1) for rule in rules)]
    return PermissionGate(parsed, mode, workspace=tmp_path)


def test_a_deny_on_one_part_denies_the_whole_even_in_bypass(tmp_path: Path) -> None:
    parts = [Part("mystery", ("Mystery",)), Part("web", ("WebFetch",), url="https://x.org/")]
    verdict = finish(gate(tmp_path, "deny WebFetch", mode=Mode.BYPASS), parts, [], ToolKind.OTHER)
    assert verdict.decision is Decision.DENY
    assert verdict.reason == "web: denied by WebFetch"


def test_plan_mode_denies_what_changes_before_any_ask(tmp_path: Path) -> None:
    verdict = finish(gate(tmp_path, "ask WebFetch", mode=Mode.PLAN), [], [], ToolKind.FILE_EDIT)
    assert verdict == finish(gate(tmp_path, mode=Mode.PLAN), [], [], ToolKind.FILE_EDIT)
    assert verdict.reason == PLAN_GUIDANCE


def test_a_hazard_asks_unless_the_mode_is_bypass(tmp_path: Path) -> None:
    assert finish(gate(tmp_path), [], ["why"], ToolKind.OTHER).decision is Decision.ASK
    assert finish(gate(tmp_path, mode=Mode.BYPASS), [], ["why"], ToolKind.OTHER).decision is Decision.ALLOW


def test_every_part_must_be_allowed_and_the_first_rule_is_reported(tmp_path: Path) -> None:
    allowed = gate(tmp_path, "allow WebFetch(domain:x.org)")
    one = [Part("web", ("WebFetch",), url="https://x.org/")]
    assert finish(allowed, one, [], ToolKind.OTHER).reason == "allowed by WebFetch(domain:x.org)"
    two = [*one, Part("web", ("WebFetch",), url="https://y.org/")]
    assert finish(allowed, two, [], ToolKind.OTHER).decision is Decision.ASK
