"""Deny and ask rules through the real CLI, however the command is spelled (issue 25, section 2)."""

import json
from pathlib import Path

import pytest

from tests.conftest import WriteText
from tests.integration.conftest import RunDecode
from tests.integration.permissions.conftest import bash, decode_run

pytestmark = pytest.mark.integration


@pytest.fixture
def user_rules(write: WriteText) -> Path:
    """The rules in the user's own file (a project's file may need trusting first)."""
    rules = {"deny": ["Bash(git push:*)", "Bash(rm -rf:*)"], "ask": ["Bash(touch asked.txt)"]}
    return write(Path.home() / ".decode" / "settings.json", json.dumps({"permissions": rules}))


@pytest.mark.parametrize("mode", ["default", "bypass"])
@pytest.mark.parametrize(
    "command",
    [
        "git -C . push",
        "git --no-pager -c a=b push origin",
        "rm --recursive --force build",
        "rm -f -r build",
        "pwsh -c ls",
    ],
)
def test_a_deny_holds_however_the_command_is_spelled(
    project: Path, user_rules: Path, decode_cmd: RunDecode, command: str, mode: str
) -> None:
    done = decode_cmd("permissions", "check", "bash", command, "--permission-mode", mode, "--json", cwd=project)
    assert done.returncode == 4, done.stdout + done.stderr
    assert json.loads(done.stdout)["source"] == str(user_rules)


def test_an_ask_rule_asks_in_bypass(project: Path, user_rules: Path, decode_cmd: RunDecode) -> None:
    done = decode_cmd("permissions", "check", "bash", "touch asked.txt", "--permission-mode", "bypass", cwd=project)
    assert done.returncode == 3, done.stdout + done.stderr
    assert "rule:   Bash(touch asked.txt)" in done.stdout


def test_headless_bypass_refuses_what_an_ask_rule_names_and_says_which(project: Path, user_rules: Path) -> None:
    done = decode_run(project, [bash("touch asked.txt"), bash("touch ran.txt")], "--permission-mode", "bypass")
    assert done.returncode == 0, done.stderr
    assert not (project / "asked.txt").exists()
    assert (project / "ran.txt").exists()  # bypass still runs what no rule names
    assert "ask rule Bash(touch asked.txt)" in done.stderr


@pytest.mark.parametrize(
    ("rule", "command"),
    [
        ("Bash(rm -rf*)", "rm -fr build"),
        ("Bash(git push * --force)", "git push -f origin"),
        ("Bash(git push --force:*)", "git push --mirror"),
    ],
)
def test_a_deny_written_with_a_star_holds_too(
    project: Path, write: WriteText, decode_cmd: RunDecode, rule: str, command: str
) -> None:
    write(Path.home() / ".decode" / "settings.json", json.dumps({"permissions": {"deny": [rule]}}))
    done = decode_cmd("permissions", "check", "bash", command, "--permission-mode", "bypass", cwd=project)
    assert done.returncode == 4, done.stdout + done.stderr
    assert rule in done.stdout
