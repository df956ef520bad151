"""Judging a bash command part by part: commands, files written, words that may name files."""

from pathlib import Path

from decode.permissions.bash_check import analyse, check_bash
from decode.permissions.gate import PermissionGate
from decode.permissions.rules import parse_rule
from decode.permissions.shell import TOO_DEEP
from decode.permissions.types import Decision


async def test_a_listed_read_only_command_runs_and_a_redirect_it_writes_asks(tmp_path: Path) -> None:
    gate = PermissionGate(workspace=tmp_path)
    assert (await check_bash(gate, "git status")).decision is Decision.ALLOW
    verdict = await check_bash(gate, "git status > out.txt")
    assert verdict.decision is Decision.ASK
    assert "write out.txt" in verdict.reason


async def test_a_word_naming_a_secret_file_asks_though_the_command_is_allowed(tmp_path: Path) -> None:
    gate = PermissionGate([parse_rule("Bash(cat:*)", Decision.ALLOW)], workspace=tmp_path)
    assert (await check_bash(gate, "cat notes.txt")).decision is Decision.ALLOW
    verdict = await check_bash(gate, "cat .env")
    assert verdict.decision is Decision.ASK
    assert "secrets" in verdict.reason


async def test_an_empty_command_asks(tmp_path: Path) -> None:
    assert (await check_bash(PermissionGate(workspace=tmp_path), "  ")).reason == "an empty command"


def test_analyse_never_raises_on_input_too_deep() -> None:
    analysis = analyse("(" * 5000 + "ls" + ")" * 5000)
    assert TOO_DEEP in analysis.hazards or analysis.opaque
