"""Custom slash commands: where they are found, their names, their front matter, and what a run sends."""

from pathlib import Path

import pytest

from decode.skills.catalog import SkillSource
from decode.skills.custom_commands import (
    CLAUDE_COMMANDS,
    DECODE_COMMANDS,
    CustomCommand,
    discover_commands,
    expand,
    with_arguments,
)
from tests.conftest import WriteText

FIX_ISSUE = """---
description: Fix a GitHub issue
argument-hint: <number> [priority]
allowed-tools: Bash(git status:*), Read
model: claude-sonnet-4-5
---

Fix issue #$1 at priority $2 (asked: $ARGUMENTS).
"""


def test_commands_are_found_namespaced_with_project_over_user(tmp_path: Path, write: WriteText) -> None:
    home, project = Path.home(), tmp_path / "project"
    write(home / CLAUDE_COMMANDS / "review.md", "Review the diff, user style.")
    write(home / DECODE_COMMANDS / "standup.md", "# Write my standup\n\nFrom the git log.")
    write(project / CLAUDE_COMMANDS / "review.md", "Review the diff, project style.")
    write(project / CLAUDE_COMMANDS / "fix-issue.md", FIX_ISSUE)
    write(project / CLAUDE_COMMANDS / "frontend" / "component.md", "Make a component $ARGUMENTS.")
    write(project / DECODE_COMMANDS / "frontend" / "component.md", "decode's component $ARGUMENTS.")
    bad = write(project / CLAUDE_COMMANDS / "Bad Name.md", "x")

    catalog = discover_commands(project)

    assert sorted(catalog.commands) == ["fix-issue", "frontend:component", "review", "standup"]
    assert catalog.commands["review"].source is SkillSource.PROJECT
    assert catalog.commands["review"].description == "Review the diff, project style."
    assert catalog.commands["standup"].description == "Write my standup"  # the first line, without its #
    assert catalog.commands["frontend:component"].body() == "decode's component $ARGUMENTS."
    fix = catalog.commands["fix-issue"]
    assert (fix.description, fix.argument_hint, fix.allowed_tools, fix.model) == (
        "Fix a GitHub issue",
        "<number> [priority]",
        "Bash(git status:*), Read",
        "claude-sonnet-4-5",
    )
    assert catalog.problems == [f"{bad}: not a command name (a lower-case letter, then letters, digits, - and _)"]


def test_broken_front_matter_is_one_problem(tmp_path: Path, write: WriteText) -> None:
    broken = write(tmp_path / CLAUDE_COMMANDS / "oops.md", "---\ndescription: [unclosed\n---\nbody")

    catalog = discover_commands(tmp_path)

    assert catalog.commands == {}
    assert catalog.problems == [f"{broken}: the front matter is not valid YAML"]


@pytest.mark.parametrize(
    ("body", "arguments", "expected"),
    [
        ("Fix #$1 at $2 ($ARGUMENTS)", '12 "very high"', 'Fix #12 at very high (12 "very high")'),
        ("Fix #$1 then $3", "12", "Fix #12 then "),
        ("Review the diff.", "carefully please", "Review the diff.\n\nARGUMENTS: carefully please"),
        ("Review the diff.", "", "Review the diff."),
        ("Quote $1", "'unclosed", "Quote 'unclosed"),
    ],
)
def test_arguments(body: str, arguments: str, expected: str) -> None:
    assert with_arguments(body, arguments) == expected


async def test_expand_runs_shell_lines_and_attaches_files(tmp_path: Path, write: WriteText) -> None:
    write(tmp_path / "docs" / "style.md", "STYLE: tabs")
    write(tmp_path / ".env", "KEY=SECRET")
    path = write(
        tmp_path / CLAUDE_COMMANDS / "ship.md",
        "Ship $1.\nStatus: !`git status --short`\n!echo $1\nFollow @docs/style.md, never @.env, "
        "not `@docs/style.md` in code.\n![a picture](x.png)",
    )
    command = CustomCommand("ship", path, SkillSource.PROJECT, "Ship it")
    ran: list[str] = []

    async def run_shell(line: str) -> str:
        ran.append(line)
        return f"[output of {line}]\n"

    prompt = await expand(command, "v2", tmp_path, run_shell)

    assert ran == ["git status --short", "echo v2"]
    assert prompt.startswith("Ship v2.\nStatus: [output of git status --short]\n[output of echo v2]\nFollow")
    assert "![a picture](x.png)" in prompt
    assert '<file path="docs/style.md">\nSTYLE: tabs\n</file>' in prompt
    assert "[@.env not attached: named like a secret]" in prompt
    assert "SECRET" not in prompt
