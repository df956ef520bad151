"""Claude Code's rule spellings through `decode permissions`, as a user brings them (issue 25)."""

import json
from pathlib import Path

import pytest

from tests.conftest import WriteText
from tests.integration.conftest import RunDecode

pytestmark = pytest.mark.integration

USER_SETTINGS = """{"permissions": {
  "deny": [
    "Bash(git push*)",
    "mcp__srv__delete_file",
    "WebSearch"
  ],
  "allow": [
    "Bash(npm run test*)",
    "Bash(:*)"
  ]
}}"""


@pytest.fixture
def user_file(write: WriteText) -> Path:
    """The user's own file (a project's allow rules may need the user's trust: not relied on here)."""
    return write(Path.home() / ".decode" / "settings.json", USER_SETTINGS)


@pytest.mark.parametrize(
    ("args", "code", "rule"),
    [
        (("bash", "sudo git push origin main"), 4, "Bash(git push*)"),
        (("bash", "git push-all"), 4, "Bash(git push*)"),
        (("bash", "npm run test:unit"), 0, "Bash(npm run test*)"),
        (("bash", "npm run build"), 3, None),
        (("mcp__srv__Delete_File",), 4, "mcp__srv__delete_file"),
    ],
)
def test_a_wildcard_and_an_mcp_name_mean_what_they_mean_in_claude_code(
    project: Path, user_file: Path, decode_cmd: RunDecode, args: tuple[str, ...], code: int, rule: str | None
) -> None:
    done = decode_cmd("permissions", "check", *args, "--json", cwd=project)
    assert done.returncode == code, done.stdout + done.stderr
    assert json.loads(done.stdout)["rule"] == rule


def test_a_spelling_decode_cannot_honour_is_named_with_its_file_and_line(
    project: Path, user_file: Path, decode_cmd: RunDecode
) -> None:
    done = decode_cmd("permissions", "check", "bash", "git status", cwd=project)
    assert f"{user_file}:5: rule 'WebSearch': WebSearch is a Claude Code tool" in done.stderr
    assert f"{user_file}:9: rule 'Bash(:*)': the command cannot be read (no command before :*)" in done.stderr
    assert done.returncode == 0  # the file still holds: its other rules are in force
