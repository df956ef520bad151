"""PreCompact hooks, real programs: Claude Code's input, `manual`/`auto` matchers, and a block that
stops `/compact` but never an automatic compaction."""

import json
import os
from pathlib import Path

import pytest

from decode.hooks.config import HookCommand, HookConfig
from decode.hooks.dispatch import Hooks
from decode.hooks.events import HookEvent
from tests.unit.hooks.conftest import MakeHook


def _hooks(tmp_path: Path, *hooks: HookCommand) -> Hooks:
    return Hooks(HookConfig(list(hooks)), tmp_path, {"PATH": os.environ["PATH"]})


async def test_the_hook_reads_the_trigger_and_the_focus(tmp_path: Path, make_hook: MakeHook) -> None:
    hooks = _hooks(tmp_path, make_hook(HookEvent.PRE_COMPACT, "cat > seen.json", matcher="manual"))
    assert await hooks.pre_compact("manual", "keep the API notes") is None
    seen = json.loads((tmp_path / "seen.json").read_text())
    assert seen["hook_event_name"] == "PreCompact"
    assert (seen["trigger"], seen["custom_instructions"]) == ("manual", "keep the API notes")
    (tmp_path / "seen.json").unlink()
    assert await hooks.pre_compact("auto") is None
    assert not (tmp_path / "seen.json").exists()  # the matcher `manual` left the automatic one alone


@pytest.mark.parametrize(
    "command",
    [
        "echo 'the transcript is not backed up yet' >&2; exit 2",
        """echo '{"decision": "block", "reason": "the transcript is not backed up yet"}'""",
    ],
)
async def test_a_block_stops_a_manual_compaction_with_its_reason(
    tmp_path: Path, make_hook: MakeHook, command: str
) -> None:
    hooks = _hooks(tmp_path, make_hook(HookEvent.PRE_COMPACT, command))
    assert await hooks.pre_compact("manual") == "the transcript is not backed up yet"


async def test_a_block_never_stops_an_automatic_compaction(
    tmp_path: Path, make_hook: MakeHook, caplog: pytest.LogCaptureFixture
) -> None:
    hooks = _hooks(tmp_path, make_hook(HookEvent.PRE_COMPACT, "echo 'not now' >&2; exit 2", matcher="auto"))
    assert await hooks.pre_compact("auto") is None
    assert "cannot stop an automatic compaction: not now" in caplog.text
