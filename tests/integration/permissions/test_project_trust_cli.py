"""Claude Code's settings files and Project Trust through the real CLI: `decode permissions` lists
every file it read and what is not in force; `decode permissions trust` puts the repository's grants
in force until they change; `decode run` keeps them off until then (or `--trust-project-settings`)."""

import json
import subprocess
from pathlib import Path

import pytest

from tests.conftest import WriteText
from tests.integration.conftest import RunDecode
from tests.integration.permissions.conftest import bash, decode_run

pytestmark = pytest.mark.integration

CLAUDE_PROJECT = (
    '{"permissions": {\n  "allow": ["Bash(touch granted.txt)"],\n  "deny": ["Bash(rm:*)"]\n},\n'
    '"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}'
)


@pytest.fixture
def claude_files(project: Path, write: WriteText) -> dict[str, Path]:
    """Claude Code's three files and decode's user file, as a Claude Code user has them: in a git
    checkout, where an untracked local file is the user's."""
    home = Path.home()
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    return {
        "claude_user": write(home / ".claude" / "settings.json", '{"permissions": {"ask": ["Bash(git push:*)"]}}'),
        "decode_user": write(home / ".decode" / "settings.json", '{"permissions": {"deny": ["Read(./secrets/**)"]}}'),
        "claude_project": write(project / ".claude" / "settings.json", CLAUDE_PROJECT),
        "claude_local": write(
            project / ".claude" / "settings.local.json", '{"permissions": {"allow": ["Bash(make:*)"]}, "env": {}}'
        ),
    }


def test_the_listing_names_every_file_read_and_what_is_not_in_force(
    project: Path, claude_files: dict[str, Path], decode_cmd: RunDecode
) -> None:
    done = decode_cmd("permissions", cwd=project)
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    start = out.index("files read, lowest priority first:")
    assert out[start + 1 : start + 5] == [
        f"  {claude_files['claude_user']} (user)",
        f"  {claude_files['decode_user']} (user)",
        f"  {claude_files['claude_project']} (project, from the repository)",
        f"  {claude_files['claude_local']} (local)",
    ]
    assert out[start + 5].startswith("not in force: the project's settings are not trusted yet")
    assert out[start + 6] == f"  allow Bash(touch granted.txt)  ({claude_files['claude_project']}:2)"
    assert out[start + 7] == f"  hook Stop: say done  ({claude_files['claude_project']}:5)"  # a program it chose
    assert out[start + 8 :] == [
        f"note: {claude_files['claude_local']}: holds keys decode does not use: env",
        "hooks, in the order the settings files are read:",
        f"  Stop: say done  ({claude_files['claude_project']}:5) · waits for trust",
    ]
    rules = {(line.split()[0], line.split()[1]) for line in out[1:start]}
    assert rules == {
        ("deny", "Bash(rm:*)"),
        ("deny", "Read(./secrets/**)"),
        ("ask", "Bash(git"),
        ("allow", "Bash(make:*)"),
    }


def test_trust_puts_the_grants_in_force_until_they_change(
    project: Path, claude_files: dict[str, Path], decode_cmd: RunDecode, write: WriteText
) -> None:
    def decision() -> str:
        done = decode_cmd("permissions", "check", "bash", "touch granted.txt", "--json", cwd=project)
        return json.loads(done.stdout)["decision"]

    assert decision() == "ask"
    done = decode_cmd("permissions", "trust", cwd=project)
    assert done.returncode == 0, done.stderr
    assert (
        done.stdout.splitlines()[0] == f"trusted: allow Bash(touch granted.txt)  ({claude_files['claude_project']}:2)"
    )
    assert str(Path.home() / ".decode" / "trusted-settings.json") in done.stdout
    assert decision() == "allow"
    write(claude_files["claude_project"], CLAUDE_PROJECT.replace('"Bash(touch granted.txt)"', '"Bash(touch:*)"'))
    assert decision() == "ask"  # another grant: asks to be trusted again
    listing = decode_cmd("permissions", "--json", cwd=project)
    assert json.loads(listing.stdout)["not_in_force"] == [
        f"allow Bash(touch:*)  ({claude_files['claude_project']}:2)",
        f"hook Stop: say done  ({claude_files['claude_project']}:5)",
    ]


def test_trust_with_nothing_to_trust_is_an_error(project: Path, decode_cmd: RunDecode) -> None:
    done = decode_cmd("permissions", "trust", cwd=project)
    assert done.returncode == 1
    assert done.stderr.strip() == f"Error: the settings files of {project} grant nothing to trust"


def test_decode_run_keeps_the_grants_off_until_trusted(project: Path, claude_files: dict[str, Path]) -> None:
    done = decode_run(project, [bash("touch granted.txt"), bash("make --version")])
    assert done.returncode == 0, done.stderr
    assert not (project / "granted.txt").exists()
    assert "Permission needed (touch granted.txt: no rule allows it in default mode)" in done.stderr
    assert "not in force until you trust them" in done.stderr
    assert "Permission needed (make" not in done.stderr  # the user's own local file needs no trust
    done = decode_run(project, [bash("touch granted.txt")], "--trust-project-settings")
    assert done.returncode == 0, done.stderr
    assert (project / "granted.txt").exists()
    assert not (Path.home() / ".decode" / "trusted-settings.json").exists()  # for this run only


def test_an_unknown_claude_mode_is_one_warning_with_file_and_line(project: Path, write: WriteText) -> None:
    path = write(project / ".claude" / "settings.local.json", '{"permissions": {\n  "defaultMode": "dontAsk"\n}}')
    done = decode_run(project, [bash("touch x")])
    assert done.returncode == 0, done.stderr
    assert f"decode: warning: {path}:2: permission mode 'dontAsk' is Claude Code's" in done.stderr
    assert not (project / "x").exists()
