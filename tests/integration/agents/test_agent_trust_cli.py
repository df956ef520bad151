"""Project Trust for a repository's agents, through the real CLI: `decode agents` says what waits
and why, `decode run --agent` runs such an agent without its mode until the project is trusted
(`--trust-project-settings` for one run, `decode permissions trust` for good)."""

import json
from pathlib import Path

import pytest

from tests.integration.conftest import RunDecode

pytestmark = pytest.mark.integration

FIXER = "---\nname: fixer\ndescription: Fixes things.\ntools: Write, Read\npermissionMode: acceptEdits\n---\nFix.\n"
BUILD = "---\nname: build\ndescription: The repository's build.\ntools: Read\n---\nDo what the README says.\n"
HOW = "until you trust this project's settings: decode permissions trust (or --trust-project-settings)"


def planted(project: Path) -> None:
    (project / ".claude" / "agents").mkdir(parents=True)
    (project / ".claude" / "agents" / "fixer.md").write_text(FIXER)
    (project / ".claude" / "agents" / "build.md").write_text(BUILD)


def writes_a_file(project: Path) -> str:
    path = project.parent / "turns.json"
    calls = [{"name": "write", "args": {"path": "fixed.txt", "content": "fixed\n"}}]
    path.write_text(json.dumps([{"tool_calls": calls}, {"text": "done"}]), encoding="utf-8")
    return f"script:{path}"


def test_decode_agents_says_why_a_project_agent_is_not_in_force(project: Path, decode_cmd: RunDecode) -> None:
    planted(project)

    done = decode_cmd("agents", cwd=project)

    assert done.returncode == 0, done.stderr
    assert "build          built-in           all tools (default)" in done.stdout
    assert "fixer          project (.claude)  .claude/agents/fixer.md · write, read\n" in done.stdout  # no mode
    assert done.stderr.splitlines() == [
        f"decode: warning: agent build: the project's .claude/agents/build.md is not used (the built-in stays) {HOW}",
        f"decode: warning: agent fixer: its permissionMode accept-edits is not in force {HOW}",
    ]


def test_run_as_an_untrusted_agent_keeps_the_default_mode(project: Path, decode_cmd: RunDecode) -> None:
    planted(project)

    done = decode_cmd("run", "--agent", "fixer", "--model", writes_a_file(project), "fix", cwd=project)

    assert done.returncode == 0, done.stderr
    assert not (project / "fixed.txt").exists()  # default mode, headless: the write needed a yes
    assert f"agent fixer: its permissionMode accept-edits is not in force {HOW}" in done.stderr


def test_run_with_trust_for_one_run_uses_the_agents_mode(project: Path, decode_cmd: RunDecode) -> None:
    planted(project)
    model = writes_a_file(project)

    done = decode_cmd("run", "--agent", "fixer", "--trust-project-settings", "--model", model, "fix", cwd=project)

    assert done.returncode == 0, done.stderr
    assert (project / "fixed.txt").read_text() == "fixed\n"
    assert "not in force" not in done.stderr


def test_decode_permissions_trust_covers_the_agents(project: Path, decode_cmd: RunDecode) -> None:
    planted(project)

    listed = decode_cmd("permissions", cwd=project)
    assert "agent fixer: permissionMode accept-edits  (.claude/agents/fixer.md:5)" in listed.stdout.replace(
        str(project) + "/", ""
    )
    trusted = decode_cmd("permissions", "trust", cwd=project)
    assert trusted.returncode == 0, trusted.stderr
    assert "trusted: agent build: replaces the built-in" in trusted.stdout

    done = decode_cmd("agents", cwd=project)
    assert done.stderr == ""
    assert "build          project (.claude)  .claude/agents/build.md · read (default)" in done.stdout
    assert "fixer          project (.claude)  .claude/agents/fixer.md · write, read · accept-edits mode" in done.stdout

    (project / ".claude" / "agents" / "fixer.md").write_text(FIXER.replace("Fixes things", "Fixes more"))
    assert decode_cmd("agents", cwd=project).stderr == ""  # the description grants nothing
    (project / ".claude" / "agents" / "extra.md").write_text(FIXER.replace("name: fixer", "name: extra"))
    assert "agent fixer: its permissionMode" in decode_cmd("agents", cwd=project).stderr  # changed: asks again
