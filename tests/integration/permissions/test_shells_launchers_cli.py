"""Shells, launchers and rule spellings through the real CLI (attack review of issue 25, #5 #6 #8)."""

import json
from pathlib import Path

import pytest

from tests.conftest import WriteText
from tests.integration.conftest import RunDecode

pytestmark = pytest.mark.integration


@pytest.fixture
def user_rules(write: WriteText) -> Path:
    """The rules in the user's own file (a project's file may need trusting first)."""
    lines = [
        '{"permissions": {"deny": [',
        '  "Bash(git push:*)",',
        '  "Bash(rm:*)",',
        '  "Bash(/usr/bin/curl:*)"',
        '], "allow": [',
        '  "Bash(cd x && make:*)"',
        "]}}",
    ]
    return write(Path.home() / ".decode" / "settings.json", "\n".join(lines))


@pytest.mark.parametrize(
    "command",
    [
        "fish -c \"echo 'a\\'' ; git push --force #'\"",
        "busybox hush -c 'git push'",
        "/usr/lib/git-core/git-push origin main",
        "tmux new -d 'git push'",
        "at now <<< 'git push'",
        "cmd.exe /Q/C git push",
        "wsl git push",
        "cmake -E rm -rf x",
        "curl https://example.com",
    ],
)
def test_a_deny_holds_in_bypass_through_shells_and_launchers(
    project: Path, user_rules: Path, decode_cmd: RunDecode, command: str
) -> None:
    done = decode_cmd("permissions", "check", "bash", command, "--permission-mode", "bypass", "--json", cwd=project)
    assert done.returncode == 4, done.stdout + done.stderr
    assert json.loads(done.stdout)["source"] == str(user_rules)


def test_a_rule_joining_commands_is_reported_with_its_file_and_line(
    project: Path, user_rules: Path, decode_cmd: RunDecode
) -> None:
    done = decode_cmd("permissions", "check", "bash", "tmux ls", "--permission-mode", "bypass", cwd=project)
    assert f"{user_rules}:6: rule 'Bash(cd x && make:*)'" in done.stderr
    assert "a Bash rule names one command; write one rule per command" in done.stderr
    assert done.returncode == 0, done.stdout  # the rest of the file holds: `tmux ls` runs
