"""A Claude Code project's custom command in a real terminal: `/fix-issue 12 high` from `.claude/commands`,
its arguments filled in, its `!` line run, its `@` file attached, the prompt sent as one turn."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.integration.conftest import Terminal

pytestmark = pytest.mark.integration

FIXTURE = Path(__file__).parents[1] / "memory_skills" / "claude_project"


def test_a_custom_command_runs_with_arguments(terminal: Terminal, tmp_path: Path, decode: str) -> None:
    shop = shutil.copytree(FIXTURE, tmp_path / "shop", symlinks=True)
    subprocess.run(["git", "init", "-q"], cwd=shop, check=True)
    (shop / "turns.json").write_text(json.dumps([{"text": "Issue 12 fixed."}]))
    terminal.start(f"{decode} --model script:turns.json", shop, size=(160, 40))
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")

    terminal.type("/fix")
    terminal.keys("Tab")  # completed after `/`
    terminal.wait_for(lambda _: "/fix-issue" in terminal.pane(), "the completed name")
    terminal.submit(" 12 high")
    screen = terminal.wait_for_text("Issue 12 fixed.")

    assert "❯ /fix-issue 12 high" in screen
    assert "!git status --short: exit code 0" in screen
    assert "/fix-issue: its model script is not used (" in screen  # one line, and the session's model answers
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the turn over: saved, then ready")
    (log,) = (shop / ".decode" / "sessions").glob("*.jsonl")
    sent = log.read_text()
    assert "Fix issue #12 with priority high (all arguments: 12 high)." in sent
    assert "CONVENTIONS-MARKER" in sent  # @docs/conventions.md, attached
    assert "?? turns.json" in sent  # the `!` line's output, in place of the line
