"""`/hooks` in a real terminal: a Claude Code project's hooks listed with their files, waiting for
trust; once the user trusts the project's settings (`/permissions trust`), a UserPromptSubmit hook
runs on the next prompt."""

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.integration.conftest import Terminal

pytestmark = pytest.mark.integration

FIXTURE = Path(__file__).parents[1] / "memory_skills" / "claude_project"
GUARD = '"$CLAUDE_PROJECT_DIR"/.claude/hooks/guard-bash.sh'


def test_hooks_are_listed_and_run_once_trusted(terminal: Terminal, tmp_path: Path, decode: str) -> None:
    shop = shutil.copytree(FIXTURE, tmp_path / "shop", symlinks=True)
    subprocess.run(["git", "init", "-q"], cwd=shop, check=True)
    (shop / "turns.json").write_text(json.dumps([{"text": "First answer."}, {"text": "Second answer."}]))
    terminal.start(f"{decode} --model script:turns.json", shop, size=(200, 40))
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")
    terminal.wait_for_text("Trust them?")

    terminal.submit("/hooks")
    screen = re.sub(r" *\n", "", terminal.wait_for_text("the repository's hooks run once you trust"))

    settings = shop / ".claude" / "settings.json"
    assert f"PreToolUse Bash: {GUARD}  {settings}:7 · waits for trust" in screen
    assert "UserPromptSubmit *: " in screen
    assert f"{settings}:18 · waits for trust" in screen

    terminal.submit("/permissions trust")  # typing /hooks put the question aside
    terminal.wait_for_text("the repository's settings are trusted")
    terminal.submit("hello")
    terminal.wait_for_text("First answer.")
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the turn over: saved, then ready")
    (log,) = (shop / ".decode" / "sessions").glob("*.jsonl")
    assert "HOOK-CONTEXT-MARKER: the shop deploys on Fridays only" in log.read_text()
