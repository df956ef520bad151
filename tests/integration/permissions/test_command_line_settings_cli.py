"""`--settings FILE_OR_JSON` through the real CLI: `decode run`, `decode permissions` (issue 30)."""

import json
from pathlib import Path

import pytest

from tests.integration.conftest import RunDecode
from tests.integration.permissions.conftest import bash, decode_run

pytestmark = pytest.mark.integration

DENY_RM = '{"permissions":{"deny":["Bash(rm:*)"]}}'


def test_a_deny_rule_given_as_json_refuses_the_command_even_in_bypass(project: Path) -> None:
    (project / "build").mkdir()
    done = decode_run(project, [bash("rm -rf build")], "--settings", DENY_RM, "--permission-mode", "bypass")
    assert done.returncode == 0, done.stderr
    assert (project / "build").is_dir()
    assert "Permission denied: rm -rf build: denied by Bash(rm:*)" in done.stderr


def test_without_it_the_same_run_removes_the_folder(project: Path) -> None:
    (project / "build").mkdir()
    done = decode_run(project, [bash("rm -rf build")], "--permission-mode", "bypass")
    assert done.returncode == 0, done.stderr
    assert not (project / "build").exists()


def test_a_settings_file_allows_what_would_ask(project: Path) -> None:
    settings = project.parent / "ci-settings.json"
    settings.write_text(json.dumps({"permissions": {"allow": ["Bash(touch made.txt)"]}}))
    refused = decode_run(project, [bash("touch made.txt")])
    assert not (project / "made.txt").exists(), refused.stderr
    done = decode_run(project, [bash("touch made.txt")], "--settings", str(settings))
    assert done.returncode == 0, done.stderr
    assert (project / "made.txt").exists()


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ('{"permissions": {"deny": "Bash(rm:*)"}}', '--settings (line 1): "deny" must be a list of rules'),
        ("{oops", "--settings (line 1): not valid JSON"),
        ("nowhere.json", "--settings nowhere.json: no such file"),
    ],
)
def test_settings_that_cannot_be_used_are_exit_2_with_one_line(project: Path, value: str, said: str) -> None:
    done = decode_run(project, [bash("touch never.txt")], "--settings", value)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert said in lines[0]
    assert not (project / "never.txt").exists()


def test_decode_permissions_lists_the_layer(project: Path, decode_cmd: RunDecode) -> None:
    done = decode_cmd("permissions", "--settings", DENY_RM, cwd=project)
    assert done.returncode == 0, done.stderr
    assert "deny   Bash(rm:*)  --settings:1 (command-line)" in done.stdout
    assert "  --settings (command-line)" in done.stdout
    checked = decode_cmd("permissions", "check", "bash", "rm -rf x", "--settings", DENY_RM, "--json", cwd=project)
    assert checked.returncode == 4
    assert json.loads(checked.stdout)["layer"] == "command-line"


def test_a_settings_file_is_read_from_the_folder_cwd_names(project: Path) -> None:
    """`decode run -C DIR --settings FILE`: FILE is DIR's, as the rest of the run is (`--cwd` first)."""
    inner = project / "inner"
    inner.mkdir()
    (inner / "ci-settings.json").write_text(json.dumps({"permissions": {"allow": ["Bash(touch made.txt)"]}}))
    done = decode_run(project, [bash("touch made.txt")], "--settings", "ci-settings.json", "-C", "inner")
    assert done.returncode == 0, done.stderr
    assert (inner / "made.txt").exists()
