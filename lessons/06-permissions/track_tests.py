"""Lesson 06's build-along track: rules read and matched, and the gate's decision in its fixed order.

`make lesson-check N=06` runs these against your copy (`make lesson-start N=06`); each test's first
docstring line is the behaviour it reports.
"""

import json
from pathlib import Path

import pytest

from decode.permissions.gate import PermissionGate
from decode.permissions.modes import Mode
from decode.permissions.rules import RuleError, command_matches, parse_rule
from decode.permissions.types import Decision
from decode.tools.bash import BASH
from decode.tools.edit import EDIT
from decode.tools.read import READ


@pytest.fixture
def gate(tmp_path: Path) -> PermissionGate:
    project, home = tmp_path / "project", tmp_path / "home"
    (project / ".decode").mkdir(parents=True)
    home.mkdir()
    rules = {"allow": ["Bash(git status)", "Bash(npm test:*)"], "deny": ["Bash(rm:*)"], "ask": ["Edit(docs/**)"]}
    (project / ".decode" / "settings.json").write_text(json.dumps({"permissions": rules}))
    (project / "notes.txt").write_text("hello\n")
    (project / ".env").write_text("SECRET=1\n")
    return PermissionGate.from_settings(project, home=home, trust_project=True)


def test_a_rule_reads_into_tool_and_specifier() -> None:
    """A rule string reads into its tool (any case) and its specifier."""
    rule = parse_rule("bAsH(git diff:*)", Decision.ALLOW)
    assert (rule.tool, rule.specifier, rule.action) == ("Bash", "git diff:*", Decision.ALLOW)
    assert parse_rule("Read", Decision.DENY).specifier is None


def test_a_malformed_rule_is_an_error() -> None:
    """A rule with an unclosed parenthesis, or a tool name that is not ASCII, is a RuleError."""
    for text in ("Bash(ls", "Bаsh(ls)"):  # the second has a Cyrillic "а"
        with pytest.raises(RuleError):
            parse_rule(text, Decision.DENY)


def test_a_command_rule_matches_whole_words() -> None:
    """'ls *' matches 'ls -la' but not 'lsof'; no specifier matches every command."""
    assert command_matches("ls *", ("ls", "-la")) is True
    assert command_matches("ls *", ("lsof",)) is False
    assert command_matches(None, ("anything",)) is True
    assert command_matches("git * main", ("git", "push", "origin", "main")) is True


async def test_a_deny_rule_wins_even_inside_a_compound_command(gate: PermissionGate) -> None:
    """A deny rule denies, however the command is dressed up."""
    verdict = await gate.check("bash", {"command": "git status && rm -rf build"}, BASH.traits)
    assert verdict.decision is Decision.DENY


async def test_an_allow_rule_allows_and_an_unknown_command_asks(gate: PermissionGate) -> None:
    """An allowed command runs; a command no rule allows and that is not read-only asks."""
    assert (await gate.check("bash", {"command": "npm test -- -x"}, BASH.traits)).decision is Decision.ALLOW
    assert (await gate.check("bash", {"command": "make deploy"}, BASH.traits)).decision is Decision.ASK


async def test_an_ask_rule_and_a_secret_file_ask(gate: PermissionGate) -> None:
    """An ask rule asks, and reading a secret file (.env) asks too."""
    assert (await gate.check("edit", {"path": "docs/a.md"}, EDIT.traits)).decision is Decision.ASK
    assert (await gate.check("read", {"path": ".env"}, READ.traits)).decision is Decision.ASK
    assert (await gate.check("read", {"path": "notes.txt"}, READ.traits)).decision is Decision.ALLOW


async def test_plan_mode_denies_edits_and_bypass_allows_what_is_not_denied(gate: PermissionGate) -> None:
    """Plan mode denies an edit; bypass mode allows all that no rule denies."""
    gate.mode = Mode.PLAN
    assert (await gate.check("edit", {"path": "notes.txt"}, EDIT.traits)).decision is Decision.DENY
    gate.mode = Mode.BYPASS
    assert (await gate.check("bash", {"command": "make deploy"}, BASH.traits)).decision is Decision.ALLOW
    assert (await gate.check("bash", {"command": "rm -rf build"}, BASH.traits)).decision is Decision.DENY
