"""Shells decode does not parse: their strings ask, and a Bash deny in force denies them."""

from pathlib import Path

import pytest

from decode.permissions.commands import analyse_command
from decode.permissions.foreign_shells import FOREIGN, is_foreign_shell, runs_a_string
from decode.permissions.types import Decision, Mode
from decode.tools.catalog import default_tools
from tests.unit.permissions.conftest import gate_with

BASH = next(spec for spec in default_tools() if spec.name == "bash")
STRINGS = [
    "pwsh -Command 'Remove-Item -Recurse x'",
    "pwsh -c 'git push --force'",
    "pwsh -NoProfile -ExecutionPolicy Bypass -Command x",
    "pwsh -EncodedCommand cgBtACAALQByAGYAIAB4AA==",
    "powershell -c x",
    "PowerShell.exe -co x",
    "nu -c 'rm -r x'",
    "nu --commands x",
    "xonsh -c x",
    "elvish -c x",
    "cmd.exe /c del x",
    "sudo pwsh -c x",
    "env nu -c x",
    "timeout 5 xonsh -c x",
    "echo 'rm x' | pwsh",  # no script file: it runs what it reads
    "pwsh -",
    "/usr/bin/pwsh -c x",
    # attack review of issue 25: fish, csh and rc quote unlike sh; Windows spellings of options
    "fish -c \"echo 'a\\'' ; git push --force #'\"",
    "fish --command='git push --force'",
    "csh -c 'git push --force'",
    "tcsh -c x",
    "rc -c x",
    "powershell.exe /Command x",
    "powershell.exe /EncodedCommand ZwBpAHQA",
    "pwsh.exe /co x",
    "cmd.exe /Q/C git push --force",
]


@pytest.mark.parametrize("mode", list(Mode))
@pytest.mark.parametrize("command", STRINGS)
async def test_a_bash_deny_in_force_denies_their_string_in_every_mode(tmp_path: Path, command: str, mode: Mode) -> None:
    gate = gate_with(tmp_path, "deny Bash(git push --force:*)", "allow Bash", mode=mode)
    verdict = await gate.check("bash", {"command": command}, BASH.traits)
    assert verdict.decision is Decision.DENY, verdict.reason
    if mode is not Mode.PLAN:
        assert verdict.rule is not None
        assert verdict.rule.text == "Bash(git push --force:*)"


@pytest.mark.parametrize("command", STRINGS)
async def test_without_a_deny_their_string_asks_even_where_bash_is_allowed(tmp_path: Path, command: str) -> None:
    verdict = await gate_with(tmp_path, "allow Bash").check("bash", {"command": command}, BASH.traits)
    assert verdict.decision is Decision.ASK, verdict.reason
    assert FOREIGN in verdict.reason


@pytest.mark.parametrize(
    "command", ["pwsh ./build.ps1", "pwsh -File build.ps1", "nu script.nu", "fish build.fish", "pwsh /tmp/x.ps1"]
)
async def test_a_script_file_is_its_own_command(tmp_path: Path, command: str) -> None:
    # Like `bash build.sh`: the file is the command, which a rule on it governs.
    assert analyse_command(command).hazards == ()
    verdict = await gate_with(tmp_path, "deny Bash(rm:*)", "allow Bash").check(
        "bash", {"command": command}, BASH.traits
    )
    assert verdict.decision is Decision.ALLOW


def test_which_shells_and_which_options() -> None:
    assert all(is_foreign_shell(name) for name in ("pwsh", "powershell", "nu", "xonsh", "elvish", "pwsh.exe"))
    assert all(is_foreign_shell(name) for name in ("fish", "fish3", "csh", "tcsh", "rc", "es", "cmd.exe"))
    assert not any(is_foreign_shell(name) for name in ("bash", "zsh", "bash.exe", "mksh", "python"))
    assert runs_a_string(("cmd.exe", "/Q/C", "x"))
    assert runs_a_string(("powershell.exe", "/EncodedCommand", "x"))
    assert runs_a_string(("pwsh", "-Comm", "x"))
    assert runs_a_string(("nu",))
    assert runs_a_string(("pwsh", None))
    assert not runs_a_string(("pwsh", "-NoProfile", "x.ps1"))
