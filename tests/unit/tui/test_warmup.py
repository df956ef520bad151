"""The warm-up: settings, imports and the Agent Loop, built off the event loop while the user types."""

import os
import subprocess
import sys
from pathlib import Path

from decode.agent.options import LoopOptions
from decode.config.settings import Settings
from decode.permissions.types import Mode
from decode.tui.warmup import start_warm_up, warm_up
from tests.conftest import script


def test_warm_up_builds_an_agent_loop_and_times_its_steps(tmp_path: Path) -> None:
    model = script(tmp_path / "s.json", [{"text": "hi"}])
    warm = warm_up(LoopOptions(tmp_path, model=model, max_requests=7), Settings(_env_file=None))
    assert warm.error is None
    assert warm.loop is not None
    assert warm.loop.max_requests == 7
    assert warm.loop.deps.workspace == tmp_path
    assert warm.model == model
    assert set(warm.timings) == {"settings", "imports", "model", "total"}


def test_without_a_model_the_settings_model_is_used_and_a_missing_key_is_an_error(tmp_path: Path) -> None:
    settings = Settings(_env_file=None)
    warm = warm_up(LoopOptions(tmp_path), settings)
    assert warm.model == settings.model
    assert warm.loop is None
    assert warm.settings is settings  # kept, so /model can build another model
    assert "GEMINI_API_KEY is not set" in (warm.error or "")


async def test_the_loop_has_the_default_tools_of_decode_run(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("alpha\n")
    model = script(
        tmp_path / "s.json",
        [
            {
                "tool_calls": [
                    {"name": "read", "args": {"path": "a.txt"}},
                    {"name": "bash", "args": {"command": "echo beta"}},
                ]
            },
            {"text": "done"},
        ],
    )
    seen: list[str] = []
    # This test is about the tools, not the permission rules (lesson 06): let everything run.
    options = LoopOptions(
        tmp_path, model=model, on_tool_output=lambda delta: seen.append(delta.text), permission_mode=Mode.BYPASS
    )
    warm = warm_up(options, Settings(_env_file=None))
    assert warm.loop is not None
    results = [event.result async for event in warm.loop.run_turn("go") if event.kind == "tool_result"]
    assert sorted((r.name, r.is_error) for r in results) == [("bash", False), ("read", False)]
    assert "beta" in "".join(seen)  # bash's output streamed to the REPL's callback


def test_start_warm_up_runs_in_a_thread_and_resolves_a_future(tmp_path: Path) -> None:
    model = script(tmp_path / "s.json", [{"text": "hi"}])
    future = start_warm_up(LoopOptions(tmp_path, model=model), Settings(_env_file=None))
    warm = future.result(timeout=60)
    assert warm.loop is not None


def test_invalid_settings_are_a_one_line_error(tmp_path: Path) -> None:
    # decode's settings object is read once per process: check it in a fresh one.
    code = (
        "from pathlib import Path\n"
        "from decode.agent.options import LoopOptions\n"
        "from decode.tui.warmup import warm_up\n"
        "print(warm_up(LoopOptions(Path('.'))).error)\n"
    )
    env = {**os.environ, "DECODE_MAX_REQUESTS": "0"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.startswith("invalid setting DECODE_MAX_REQUESTS = '0':")
    assert done.stdout.count("\n") == 1
