"""`decode permissions` as a user runs it: a real process, real settings files in every layer."""

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import WriteText
from tests.integration.conftest import RunDecode

pytestmark = pytest.mark.integration


@pytest.fixture
def layered(project: Path, write: WriteText, trust_settings: Callable[[Path], Path]) -> dict[str, Path]:
    """A user, a project (trusted) and a local settings file, each with a rule."""
    files = {
        "user": write(Path.home() / ".decode" / "settings.json", '{"permissions": {"deny": ["Bash(rm:*)"]}}'),
        "project": write(
            project / ".decode" / "settings.json",
            '{"permissions": {\n  "allow": ["Bash(git status)", "Read(src/**)"],\n  "defaultMode": "default"\n}}',
        ),
    }
    trust_settings(project)  # before the local file exists: no good copy of it is kept yet
    files["local"] = write(
        project / ".decode" / "settings.local.json", '{"permissions": {"ask": ["Bash(git push:*)"]}}'
    )
    return files


def test_the_issue_example_is_denied_by_the_user_rule(
    project: Path, layered: dict[str, Path], decode_cmd: RunDecode
) -> None:
    done = decode_cmd("permissions", "check", "bash", "git status && rm -rf build", "--json", cwd=project)
    assert done.returncode == 4, done.stderr
    assert json.loads(done.stdout) | {"reason": None} == {
        "decision": "deny",
        "rule": "Bash(rm:*)",
        "source": str(layered["user"]),
        "line": 1,
        "layer": "user",
        "reason": None,
    }


def test_each_decision_through_the_cli(project: Path, layered: dict[str, Path], decode_cmd: RunDecode) -> None:
    def decision(*args: str) -> tuple[str, str | None]:
        data = json.loads(decode_cmd("permissions", "check", *args, "--json", cwd=project).stdout)
        return data["decision"], data["source"]

    assert decision("bash", "git status") == ("allow", str(layered["project"]))
    assert decision("bash", "git push origin main") == ("ask", str(layered["local"]))
    assert decision("bash", "echo $(rm -rf /)") == ("deny", str(layered["user"]))
    assert decision("bash", "curl x | sh") == ("ask", None)
    assert decision("edit", "src/app.py", "--permission-mode", "accept-edits") == ("allow", None)
    assert decision("edit", "src/app.py", "--permission-mode", "plan") == ("deny", None)


def test_the_listing_names_every_file(project: Path, layered: dict[str, Path], decode_cmd: RunDecode) -> None:
    done = decode_cmd("permissions", cwd=project)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == f"mode: default ({layered['project']}:3)"
    for layer, path in layered.items():
        assert f"{path}:" in done.stdout
        assert f"({layer})" in done.stdout


def test_a_broken_file_is_reported_and_decode_still_answers(
    project: Path, layered: dict[str, Path], write: WriteText, decode_cmd: RunDecode
) -> None:
    write(layered["local"], '{"permissions": {"ask": [\n  "Bash(git push:*)"\n  "Bash(npm publish)"\n]}}')
    done = decode_cmd("permissions", "check", "bash", "rm -rf /", cwd=project)
    assert done.returncode == 4
    assert done.stdout.startswith("deny\n")
    assert done.stderr.strip().startswith(
        f"decode: warning: {layered['local']}:3: not valid JSON (Expecting ',' delimiter); no good copy of it is kept"
    )


def test_usage_errors_exit_2(project: Path, decode_cmd: RunDecode) -> None:
    assert decode_cmd("permissions", "check", cwd=project).returncode == 2
    assert decode_cmd("permissions", "--permission-mode", "yolo", cwd=project).returncode == 2


@pytest.mark.parametrize(
    "tool", ["foo", "BASH ", "bаsh", "mcp__", "mcp__github", "mcp__a b__c", "mcp__x__", "MCP__x__y"]
)
def test_an_unknown_tool_name_is_a_usage_error(project: Path, decode_cmd: RunDecode, tool: str) -> None:
    done = decode_cmd("permissions", "check", tool, "x", cwd=project)
    assert done.returncode == 2, done.stdout
    assert done.stdout == ""
    assert "tool" in done.stderr


@pytest.mark.parametrize(
    ("args", "code", "decision"),
    [
        (("bash", "git status"), 0, "allow"),
        (("bash", "git push origin main"), 3, "ask"),
        (("bash", "echo $(rm -rf /)"), 4, "deny"),
        (("mcp__github__get_issue",), 3, "ask"),
    ],
)
def test_the_exit_code_tells_allow_ask_and_deny_apart(
    project: Path, layered: dict[str, Path], decode_cmd: RunDecode, args: tuple[str, ...], code: int, decision: str
) -> None:
    for extra in ((), ("--json",)):
        done = decode_cmd("permissions", "check", *args, *extra, cwd=project)
        assert done.returncode == code, done.stderr
        assert (json.loads(done.stdout)["decision"] if extra else done.stdout.splitlines()[0]) == decision


def test_a_read_only_command_is_allowed_and_explained(project: Path, decode_cmd: RunDecode) -> None:
    """No settings file: the built-in read-only list decides, and says so; a real git repository."""
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    (project / "notes.txt").write_text("a\n", encoding="utf-8")
    done = decode_cmd("permissions", "check", "bash", "git status && cat notes.txt | wc -l", cwd=project)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "allow",
        "  rule:   none (default mode decides)",
        "  why:    read-only (git status, cat, wc): on decode's built-in list, default mode runs it",
    ]
    follow = decode_cmd("permissions", "check", "bash", "tail -f notes.txt", cwd=project)
    assert follow.returncode == 3
    assert "tail -f follows the file and never ends, so it is not on the read-only list" in follow.stdout


def test_decode_help_lists_permissions_without_importing_it(project: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-X",
            "importtime",
            "-c",
            "import sys; sys.argv = ['decode', '--help']; import decode.cli as c; c.cli()",
        ],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "permissions  Show the permission rules" in done.stdout
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines() if "|" in line}
    assert "tree_sitter" not in imported
    # Only the Permission Modes (the choices of `--permission-mode`), not the command or the gate.
    loaded = {name for name in imported if name.startswith(("decode.permissions", "decode.commands."))}
    assert loaded == {"decode.permissions", "decode.permissions.modes"}


DEEP = "echo " + "$(echo " * 250 + "x" + ")" * 250


@pytest.mark.parametrize("mode", ["default", "bypass"])
def test_deep_input_asks_and_exits_3(project: Path, layered: dict[str, Path], decode_cmd: RunDecode, mode: str) -> None:
    done = decode_cmd("permissions", "check", "bash", DEEP, "--permission-mode", mode, cwd=project)
    assert done.returncode == 3, done.stderr
    assert done.stdout.startswith("ask\n")
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("command", ["{rm,x} y", "/bin/r? x", "r\\\nm x", "bash <<< 'rm x'", "sudo --user=root rm x"])
def test_a_deny_holds_against_every_spelling_in_bypass(
    project: Path, layered: dict[str, Path], decode_cmd: RunDecode, command: str
) -> None:
    done = decode_cmd("permissions", "check", "bash", command, "--mode", "bypass", "--json", cwd=project)
    assert json.loads(done.stdout)["decision"] == "deny"


def test_secret_files_ask_and_the_setting_names_more(project: Path, write: WriteText, decode_cmd: RunDecode) -> None:
    write(project / ".env.local", "KEY=1\n")
    write(project / "creds.json", "{}\n")

    def decision(*args: str, env: dict[str, str] | None = None) -> str:
        done = decode_cmd("permissions", "check", *args, "--json", cwd=project, env=env)
        decision = json.loads(done.stdout)["decision"]
        assert done.returncode == {"allow": 0, "ask": 3, "deny": 4}[decision], done.stderr
        return decision

    assert decision("read", ".env.local") == "ask"
    assert decision("read", ".env.local", "--mode", "bypass") == "ask"
    assert decision("read", "creds.json") == "allow"
    assert decision("read", "creds.json", env={"DECODE_SECRET_FILES": "creds.json,*.pem"}) == "ask"
    assert decision("bash", "cat creds.json", env={"DECODE_SECRET_FILES": '["creds.json"]'}) == "ask"
    bad = decode_cmd("permissions", "check", "read", "x", cwd=project, env={"DECODE_SECRET_FILES": "[oops"})
    assert bad.returncode == 2
    assert "DECODE_SECRET_FILES" in bad.stderr
