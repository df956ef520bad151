"""Hooks as real programs: the JSON on stdin, the environment, side by side, a timeout ends them all."""

import json
import os
from pathlib import Path

from pydantic_ai.messages import BinaryContent

from decode.hooks.events import HookEvent
from decode.hooks.running import run_hook, run_hooks
from decode.processes.environment import inherited_environment
from tests.unit.hooks.conftest import MakeHook
from tests.unit.processes.conftest import process_alive


async def test_a_hook_reads_the_events_json_on_stdin_in_the_project(tmp_path: Path, make_hook: MakeHook) -> None:
    hook = make_hook(HookEvent.PRE_TOOL_USE, 'cat > got.json; printf %s "$CLAUDE_PROJECT_DIR" > dir.txt')
    payload = {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": "ls é"}}

    run = await run_hook(hook, payload, tmp_path, {"PATH": os.environ["PATH"]})

    assert (run.exit_code, run.stdout, run.stderr) == (0, "", "")
    assert json.loads((tmp_path / "got.json").read_text()) == payload
    assert (tmp_path / "dir.txt").read_text() == str(tmp_path)


async def test_decodes_keys_never_reach_a_hook(tmp_path: Path, make_hook: MakeHook, monkeypatch) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "AIza-secret-value")
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_secretvalue1234567890")
    hook = make_hook(HookEvent.STOP, "env")

    run = await run_hook(hook, {}, tmp_path, inherited_environment())

    assert "AIza-secret-value" not in run.stdout
    assert "ghp_secretvalue" not in run.stdout
    assert "CLAUDE_PROJECT_DIR=" in run.stdout


async def test_a_hook_past_its_timeout_is_ended_with_all_it_started(tmp_path: Path, make_hook: MakeHook) -> None:
    hook = make_hook(HookEvent.PRE_TOOL_USE, "sleep 300 & echo $! > child.pid; wait", timeout=1)

    run = await run_hook(hook, {}, tmp_path, {"PATH": os.environ["PATH"]})

    assert run.timed_out
    assert run.exit_code is None
    assert not process_alive(int((tmp_path / "child.pid").read_text()))


async def test_an_events_hooks_run_side_by_side_and_the_same_command_once(tmp_path: Path, make_hook: MakeHook) -> None:
    # Each waits for the other's file: they finish only if they run at the same time.
    first = make_hook(HookEvent.STOP, "touch a; until [ -e b ]; do sleep 0.01; done; echo first", timeout=20)
    second = make_hook(HookEvent.STOP, "touch b; until [ -e a ]; do sleep 0.01; done; echo second", timeout=20)
    again = make_hook(HookEvent.STOP, first.command, matcher="*")

    runs = await run_hooks([first, second, again], {}, tmp_path, {"PATH": os.environ["PATH"]})

    assert [(run.exit_code, run.stdout.strip()) for run in runs] == [(0, "first"), (0, "second")]


async def test_a_hook_that_cannot_start_is_a_failed_hook(tmp_path: Path, make_hook: MakeHook) -> None:
    run = await run_hook(make_hook(HookEvent.STOP, "true"), {}, tmp_path / "gone", {})

    assert run.exit_code == 127
    assert "could not run the hook" in run.stderr


async def test_what_json_cannot_spell_reaches_a_hook_as_json(tmp_path: Path, make_hook: MakeHook) -> None:
    # A name that is not UTF-8 (a lone surrogate once decoded) and an MCP tool's image made the
    # payload impossible to encode: the tool call failed instead of the hook running.
    hook = make_hook(HookEvent.POST_TOOL_USE, "cat > got.json")
    image = BinaryContent(data=b"\x89PNG\r\n\x1a\n", media_type="image/png")
    payload = {"tool_input": {"file_path": "caf\udce9.txt"}, "tool_response": [image, "é"]}

    run = await run_hook(hook, payload, tmp_path, {"PATH": os.environ["PATH"]})

    assert run.exit_code == 0, run.stderr
    got = json.loads((tmp_path / "got.json").read_bytes())
    assert got == {"tool_input": {"file_path": "caf\udce9.txt"}, "tool_response": ["[image/png, 8 bytes]", "é"]}


async def test_a_flooding_daemonising_hook_costs_decode_64_kib_and_leaves_nothing(
    tmp_path: Path, make_hook: MakeHook
) -> None:
    # 32 MB on stdout, bytes that are not UTF-8, and a daemon in a session of its own holding the pipe.
    command = "head -c 33554432 /dev/zero; printf '\\377\\376' >&2; setsid sleep 300 & echo $! > daemon.pid"
    hook = make_hook(HookEvent.POST_TOOL_USE, command, timeout=30)

    run = await run_hook(hook, {}, tmp_path, {"PATH": os.environ["PATH"]})

    assert run.exit_code == 0
    assert len(run.stdout) < 70 * 1024
    assert run.stdout.endswith(f"[{33554432 - 64 * 1024} more bytes dropped]")
    assert run.stderr == "\ufffd\ufffd"
    assert not process_alive(int((tmp_path / "daemon.pid").read_text()))
