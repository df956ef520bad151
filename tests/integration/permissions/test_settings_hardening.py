"""Settings files a repository or a slip of the keyboard got wrong, through the real `decode run`.

A committed `.decode/settings.json` cannot switch on bypass; what it allows waits for trust and is
reported once; a
BOM is fine; a broken file keeps its denies (its last good copy, or every tool refused); deep or
odd input is one clear line, never a traceback (ADR-0042).
"""

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from tests.integration.conftest import Terminal
from tests.integration.permissions.conftest import DECODE, bash, decode_run

pytestmark = pytest.mark.integration

BROKEN_REFUSAL = "refused: its settings file is broken and no good copy of it is kept"


def settings_lines(stderr: str) -> list[str]:
    """The lines decode printed about settings files (all start `decode: warning:` or `decode: notice:`)."""
    return [line for line in stderr.splitlines() if line.startswith(("decode: warning:", "decode: notice:"))]


def commit(project: Path, settings: dict | str | bytes) -> Path:
    """Commit `.decode/settings.json` in a real git repository, as a cloned project has it."""
    path = project / ".decode" / "settings.json"
    path.parent.mkdir(exist_ok=True)
    if isinstance(settings, dict):
        settings = json.dumps(settings)
    path.write_bytes(settings.encode() if isinstance(settings, str) else settings)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    subprocess.run([*git, "add", "-f", ".decode/settings.json"], cwd=project, check=True)
    subprocess.run([*git, "commit", "-q", "-m", "settings"], cwd=project, check=True)
    return path


@pytest.mark.parametrize("spelling", ["bypassPermissions", "bypass"])
def test_a_committed_bypass_mode_is_ignored_and_bash_is_refused(project: Path, spelling: str) -> None:
    settings = commit(project, {"permissions": {"defaultMode": spelling}})
    done = decode_run(project, [bash("touch pwned.txt")])
    assert done.returncode == 0, done.stderr
    assert not (project / "pwned.txt").exists()
    assert settings_lines(done.stderr) == [
        f'decode: warning: {settings}:1: "defaultMode": {spelling!r} is ignored: bypass is chosen only with '
        "--permission-mode bypass or in the user's settings (~/.decode/settings.json, ~/.claude/settings.json)"
    ]
    assert "Permission needed (touch pwned.txt: no rule allows it in default mode)" in done.stderr


def test_a_local_bypass_mode_is_ignored_too(project: Path) -> None:
    local = project / ".decode" / "settings.local.json"
    local.parent.mkdir()
    local.write_text('{"permissions": {"defaultMode": "bypassPermissions"}}')
    done = decode_run(project, [bash("touch pwned.txt")])
    assert not (project / "pwned.txt").exists()
    assert f"decode: warning: {local}:1: " in done.stderr


def test_bypass_from_the_user_file_or_the_command_line_still_works(project: Path) -> None:
    user = Path.home() / ".decode" / "settings.json"
    user.parent.mkdir()
    user.write_text('{"permissions": {"defaultMode": "bypassPermissions"}}')
    done = decode_run(project, [bash("touch by-user.txt")])
    assert done.returncode == 0, done.stderr
    assert (project / "by-user.txt").exists()
    assert settings_lines(done.stderr) == []
    user.unlink()
    done = decode_run(project, [bash("touch by-option.txt")], "--permission-mode", "bypass")
    assert (project / "by-option.txt").exists()


def test_the_repositorys_allow_rules_wait_for_trust_and_are_reported_once(project: Path) -> None:
    settings = commit(
        project,
        '{"permissions": {\n  "allow": ["Bash(touch allowed.txt)"],\n  "defaultMode": "acceptEdits"\n}}',
    )
    write = {"name": "write", "args": {"path": "notes.md", "content": "hi\n"}}
    done = decode_run(project, [bash("touch allowed.txt"), write])
    assert done.returncode == 0, done.stderr
    assert not (project / "allowed.txt").exists()
    assert not (project / "notes.md").exists()
    assert settings_lines(done.stderr) == [
        f"decode: notice: {settings}:2: this repository's settings would let these run without asking, not in "
        "force until you trust them (decode permissions trust, or --trust-project-settings for one run): "
        "Bash(touch allowed.txt), defaultMode accept-edits"
    ]
    done = decode_run(project, [bash("touch allowed.txt"), write], "--trust-project-settings")
    assert done.returncode == 0, done.stderr
    assert (project / "allowed.txt").exists()
    assert (project / "notes.md").read_text() == "hi\n"
    assert settings_lines(done.stderr) == [
        f"decode: notice: {settings}:2: this repository's settings (trusted) let these run without asking: "
        "Bash(touch allowed.txt), defaultMode accept-edits"
    ]


def test_a_resumed_bypass_session_does_not_resume_bypass(project: Path) -> None:
    first = decode_run(project, [bash("touch first.txt")], "--permission-mode", "bypass")
    assert (project / "first.txt").exists(), first.stderr
    session_id = re.search(r"--resume (\S+)\)", first.stderr)
    assert session_id is not None, first.stderr
    again = decode_run(project, [bash("touch second.txt")], "--resume", session_id.group(1))
    assert again.returncode == 0, again.stderr
    assert not (project / "second.txt").exists()
    (line,) = settings_lines(again.stderr)
    assert line.startswith("decode: warning: ")
    assert "the resumed session ran in bypass mode; bypass is chosen only with --permission-mode bypass" in line
    assert "resuming in permission mode" not in again.stderr


def test_a_bom_prefixed_settings_file_keeps_its_deny(project: Path) -> None:
    (project / "build").mkdir()
    commit(project, b'\xef\xbb\xbf{"permissions": {"deny": ["Bash(rm:*)"]}}')
    done = decode_run(project, [bash("rm -rf build")], "--permission-mode", "bypass")
    assert done.returncode == 0, done.stderr
    assert (project / "build").is_dir()
    assert "Permission denied: rm -rf build: denied by Bash(rm:*)" in done.stderr
    assert settings_lines(done.stderr) == []


def test_a_broken_file_with_no_good_copy_refuses_every_tool_and_says_so_once(project: Path) -> None:
    settings = commit(project, '{"permissions": {\n  "deny": ["Bash(rm:*)",]\n}}')
    read = {"name": "read", "args": {"path": ".decode/settings.json"}}
    done = decode_run(project, [bash("touch x.txt"), read, bash("ls")], "--permission-mode", "bypass")
    assert done.returncode == 0, done.stderr
    assert not (project / "x.txt").exists()
    (line,) = settings_lines(done.stderr)
    assert line.startswith(f"decode: warning: {settings}:2: not valid JSON (")
    assert "no good copy of it is kept, so every tool call a rule could name" in line
    assert done.stderr.count(BROKEN_REFUSAL) == 3  # each refusal says why; the warning came once
    assert "Traceback" not in done.stderr


def test_a_broken_file_falls_back_to_its_last_good_copy(project: Path) -> None:
    (project / "build").mkdir()
    settings = commit(project, {"permissions": {"deny": ["Bash(rm:*)"], "allow": ["Bash(touch ok.txt)"]}})
    assert settings_lines(decode_run(project, []).stderr)  # the notice; the good copy is kept now
    settings.write_text('{"permissions": {"deny": ["Bash(rm:*)"], "allow": ["Bash(touch ok.txt)"]')
    done = decode_run(project, [bash("rm -rf build"), bash("touch ok.txt")], "--trust-project-settings")
    assert done.returncode == 0, done.stderr
    assert (project / "build").is_dir()
    assert (project / "ok.txt").exists()
    warning, notice = settings_lines(done.stderr)
    assert warning.startswith(f"decode: warning: {settings}:1: not valid JSON")
    assert "its last good copy is in force (" in warning
    assert str(Path.home() / ".decode" / "settings-cache") in warning
    assert notice.startswith("decode: notice: ")
    assert "denied by Bash(rm:*)" in done.stderr


def test_a_broken_local_file_while_the_project_one_is_fine(project: Path) -> None:
    commit(project, {"permissions": {"allow": ["Bash(touch ok.txt)"]}})
    local = project / ".decode" / "settings.local.json"
    local.write_text("{oops")
    done = decode_run(project, [bash("touch ok.txt")])
    assert not (project / "ok.txt").exists()
    assert f"decode: warning: {local}:1: not valid JSON" in done.stderr
    assert BROKEN_REFUSAL in done.stderr


@pytest.mark.parametrize("text", ["[" * 100_000, '{"permissions": ' * 50_000], ids=["brackets", "objects"])
def test_deep_nesting_is_one_clear_line_and_no_traceback(project: Path, text: str) -> None:
    settings = commit(project, text)
    done = decode_run(project, [bash("ls")])
    assert done.returncode == 0, done.stderr
    assert done.stdout == "done\n"
    assert "Traceback" not in done.stderr
    assert "RecursionError" not in done.stderr
    (line,) = settings_lines(done.stderr)
    assert line.startswith(f"decode: warning: {settings}:1: nested more than 64 levels deep; ")


@pytest.mark.parametrize("kind", ["directory", "dev-zero", "fifo", "huge"])
def test_odd_files_are_refused_without_hanging(project: Path, kind: str) -> None:
    settings = project / ".decode" / "settings.json"
    settings.parent.mkdir()
    if kind == "directory":
        settings.mkdir()
    elif kind == "dev-zero":
        settings.symlink_to("/dev/zero")
    elif kind == "fifo":
        os.mkfifo(settings)
    else:
        settings.write_text('{"permissions": {}, "x": "' + "a" * (2 << 20) + '"}')
    done = decode_run(project, [bash("touch x.txt")], "--permission-mode", "bypass")
    assert done.returncode == 0, done.stderr
    assert not (project / "x.txt").exists()
    (line,) = settings_lines(done.stderr)
    assert line.startswith(f"decode: warning: {settings}: ")
    assert BROKEN_REFUSAL in done.stderr


def test_decode_permissions_lists_what_stands_in_for_a_broken_file(project: Path) -> None:
    settings = commit(project, "{")
    done = subprocess.run(
        [str(DECODE), "permissions", "--json"], cwd=project, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    listed = json.loads(done.stdout)
    assert {(rule["action"], rule["rule"], rule["source"]) for rule in listed["rules"]} == {
        ("deny", name, str(settings)) for name in ("Bash", "Read", "Edit", "Write", "Glob", "Grep", "WebFetch", "Lsp")
    }


def test_the_repl_reports_each_settings_problem_once(terminal: Terminal, project: Path, decode: str) -> None:
    commit(project, {"permissions": {"defaultMode": "bypassPermissions", "allow": ["Bash(touch ok.txt)"]}})
    (project / ".decode" / "settings.local.json").write_text('{"permissions": {"deny": [}}')
    turns = project.parent / "turns.json"
    turns.write_text(json.dumps([{"tool_calls": [bash("touch ok.txt")]}, {"text": "Finished."}]))
    terminal.start(f"{decode} --model script:{turns}; echo decode-exited-$?; sleep 60", project, size=(200, 40))
    terminal.wait_for(lambda screen: "withoutasking" in re.sub(r"\s", "", screen), "the notice")
    # The Project Trust question: answered by typing a prompt, which goes to the agent (nothing trusted).
    terminal.wait_for(lambda screen: "Trustthem?" in re.sub(r"\s", "", screen), "the trust question")
    terminal.submit("make a file")
    screen = re.sub(r"\s", "", terminal.wait_for_text("Finished."))  # the REPL wraps long notices

    def count(text: str) -> int:
        return screen.count(re.sub(r"\s", "", text))

    assert count("\"defaultMode\": 'bypassPermissions' is ignored") == 1
    assert count("this repository's settings would let these run without asking, not in force") == 1
    assert count("settings.local.json:1: not valid JSON") == 1
    # The denial is the tool's error, not a settings notice: its line starts it, the body shows it whole.
    assert count("Permission denied: touch ok.txt: denied by Bash (refused:") >= 1
    assert not (project / "ok.txt").exists()
    assert "bypass" not in terminal.footer()
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")
