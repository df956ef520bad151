"""`/compact` in a real terminal with a PreCompact hook (a real program) that refuses: the history
stays, and the user reads why; the hook heard the trigger and the focus as Claude Code sends them."""

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
