"""Hooks (real programs) in a real terminal: a PreCompact hook that refuses `/compact` (the history
stays, the user reads why; the hook heard the trigger and the focus as Claude Code sends them), and a
PreToolUse hook's `updatedInput` (the question and the call's line show what ran)."""

import json
import subprocess
from pathlib import Path

import pytest

from tests.integration.conftest import Terminal

pytestmark = pytest.mark.integration


def test_a_precompact_hook_stops_compact_with_its_reason(terminal: Terminal, tmp_path: Path, decode: str) -> None:
    project = tmp_path / "shop"
    project.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    (project / "turns.json").write_text(json.dumps([{"text": "First answer."}]))
    settings = Path.home() / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    hook = 'cat > seen.json; echo "back up the transcript first" >&2; exit 2'
    settings.write_text(
        json.dumps({"hooks": {"PreCompact": [{"matcher": "manual", "hooks": [{"type": "command", "command": hook}]}]}})
    )
    terminal.start(f"{decode} --model script:turns.json", project, size=(140, 40))
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")
    terminal.submit("hello")
    terminal.wait_for_text("First answer.")
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the turn over")

    terminal.submit("/compact keep the API notes")
    screen = terminal.wait_for_text("a PreCompact hook stopped the compaction: back up the transcript first")
    assert "compacting: asking the model" not in screen
    seen = json.loads((project / "seen.json").read_text())
    assert (seen["trigger"], seen["custom_instructions"]) == ("manual", "keep the API notes")


def test_a_call_a_hook_rewrote_shows_what_ran(terminal: Terminal, tmp_path: Path, decode: str) -> None:
    project = tmp_path / "shop"
    project.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    call = {"tool_calls": [{"name": "bash", "args": {"command": "echo original > out.txt"}}]}
    (project / "turns.json").write_text(json.dumps([call, {"text": "Done."}]))
    said = {
        "hookSpecificOutput": {"hookEventName": "PreToolUse", "updatedInput": {"command": "echo rewritten > out.txt"}}
    }
    (tmp_path / "said.json").write_text(json.dumps(said))
    settings = Path.home() / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    hook = {"matcher": "Bash", "hooks": [{"type": "command", "command": f"cat {tmp_path / 'said.json'}"}]}
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [hook]}}))
    terminal.start(f"{decode} --model script:turns.json", project, size=(140, 40))
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")

    terminal.submit("write it")
    terminal.wait_for_text("allow bash(echo rewritten > out.txt)?")  # the question is about what will run
    terminal.type("y")
    screen = terminal.wait_for_text("Done.")
    assert "✓ bash(echo rewritten > out.txt) · changed by a hook" in screen
    assert (project / "out.txt").read_text() == "rewritten\n"
