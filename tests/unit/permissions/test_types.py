"""Modes, decisions and verdicts: the words the rest of the permission system speaks."""

from pathlib import Path

import pytest

from decode.permissions.types import Decision, Layer, Mode, Rule, RuleSource, Verdict


@pytest.mark.parametrize(
    ("text", "mode"),
    [
        ("default", Mode.DEFAULT),
        ("plan", Mode.PLAN),
        ("accept-edits", Mode.ACCEPT_EDITS),
        ("acceptEdits", Mode.ACCEPT_EDITS),
        ("bypass", Mode.BYPASS),
        ("bypassPermissions", Mode.BYPASS),
        (" Plan ", Mode.PLAN),
    ],
)
def test_modes_accept_decode_and_claude_code_spellings(text: str, mode: Mode) -> None:
    assert Mode.parse(text) is mode


def test_an_unknown_mode_names_the_valid_ones() -> None:
    with pytest.raises(ValueError, match="default, plan, accept-edits, bypass"):
        Mode.parse("yolo")


def test_shift_tab_cycles_default_accept_edits_plan_and_never_reaches_bypass() -> None:
    seen = [Mode.DEFAULT]
    for _ in range(5):
        seen.append(seen[-1].next())
    assert seen == [Mode.DEFAULT, Mode.ACCEPT_EDITS, Mode.PLAN, Mode.DEFAULT, Mode.ACCEPT_EDITS, Mode.PLAN]
    assert Mode.BYPASS.next() is Mode.DEFAULT


def test_a_rule_reads_back_as_written_and_its_source_as_file_and_line() -> None:
    source = RuleSource(Layer.PROJECT, Path("/p/.decode/settings.json"), 4)
    rule = Rule(Decision.DENY, "Bash", "rm:*", source)
    assert str(rule) == "Bash(rm:*)"
    assert str(Rule(Decision.ALLOW, "mcp__github")) == "mcp__github"
    assert str(source) == "/p/.decode/settings.json:4"


def test_a_verdict_serialises_to_the_documented_json() -> None:
    source = RuleSource(Layer.LOCAL, Path("/p/.decode/settings.local.json"), 3)
    verdict = Verdict(Decision.ALLOW, "allowed by Bash(ls)", Rule(Decision.ALLOW, "Bash", "ls", source))
    assert verdict.to_json() == {
        "decision": "allow",
        "rule": "Bash(ls)",
        "source": "/p/.decode/settings.local.json",
        "line": 3,
        "layer": "local",
        "reason": "allowed by Bash(ls)",
    }
    assert Verdict(Decision.ASK, "no rule").to_json()["rule"] is None
