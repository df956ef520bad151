"""What hooks say, read per event as Claude Code reads it: exit codes, then JSON output."""

import json

import pytest

from decode.hooks.events import HookEvent
from decode.hooks.outcome import read_outcome
from decode.hooks.running import HookRun
from tests.unit.hooks.conftest import MakeHook


def _run(make_hook: MakeHook, code: int | None, stdout: str = "", stderr: str = "") -> HookRun:
    return HookRun(make_hook(HookEvent.STOP, "hook"), code, stdout, stderr)


def _json(**data: object) -> str:
    return json.dumps(data)


def test_exit_2_blocks_a_tool_call_with_stderr_for_the_model(make_hook: MakeHook) -> None:
    outcome = read_outcome(HookEvent.PRE_TOOL_USE, [_run(make_hook, 2, stderr="no rm -rf here\n")])

    assert outcome.decision == "deny"
    assert outcome.blocked
    assert outcome.reason == "no rm -rf here"


def test_exit_2_after_a_tool_is_feedback_and_before_a_prompt_blocks_it(make_hook: MakeHook) -> None:
    after = read_outcome(HookEvent.POST_TOOL_USE, [_run(make_hook, 2, stderr="lint: 3 errors")])
    prompt = read_outcome(HookEvent.USER_PROMPT_SUBMIT, [_run(make_hook, 2, stderr="no secrets in prompts")])

    assert not after.blocked
    assert after.context == ["lint: 3 errors"]
    assert prompt.blocked
    assert prompt.reason == "no secrets in prompts"


def test_another_exit_code_or_a_timeout_is_a_warning_and_nothing_is_blocked(make_hook: MakeHook, caplog) -> None:
    runs = [_run(make_hook, 1, stderr="jq: not found\nmore"), _run(make_hook, None)]

    outcome = read_outcome(HookEvent.PRE_TOOL_USE, runs)

    assert not outcome.blocked
    assert outcome.decision is None
    assert "failed with exit code 1: jq: not found" in outcome.warnings[0]
    assert "ran past its 60s and was stopped" in outcome.warnings[1]
    assert [record.levelname for record in caplog.records] == ["WARNING", "WARNING"]


@pytest.mark.parametrize(
    ("decisions", "expected"),
    [(["allow", "ask"], "ask"), (["allow", "deny", "ask"], "deny"), (["allow"], "allow")],
)
def test_deny_beats_ask_beats_allow(make_hook: MakeHook, decisions: list[str], expected: str) -> None:
    runs = [
        _run(make_hook, 0, _json(hookSpecificOutput={"hookEventName": "PreToolUse", "permissionDecision": d}))
        for d in decisions
    ]

    assert read_outcome(HookEvent.PRE_TOOL_USE, runs).decision == expected


def test_the_older_approve_and_block_decisions_still_count(make_hook: MakeHook) -> None:
    outcome = read_outcome(HookEvent.PRE_TOOL_USE, [_run(make_hook, 0, _json(decision="block", reason="frozen"))])

    assert outcome.decision == "deny"
    assert outcome.reason == "frozen"


def test_stdout_is_context_for_a_prompt_and_json_context_for_any_event(make_hook: MakeHook) -> None:
    plain = read_outcome(HookEvent.USER_PROMPT_SUBMIT, [_run(make_hook, 0, "Today is a release day.\n")])
    logged = read_outcome(HookEvent.PRE_TOOL_USE, [_run(make_hook, 0, "checked\n")])
    extra = _json(hookSpecificOutput={"hookEventName": "PostToolUse", "additionalContext": "formatted with black"})
    after = read_outcome(HookEvent.POST_TOOL_USE, [_run(make_hook, 0, extra)])

    assert plain.context == ["Today is a release day."]
    assert logged.context == []
    assert logged.decision is None
    assert after.context == ["formatted with black"]


def test_a_stop_hook_blocks_with_its_reason_and_continue_false_stops(make_hook: MakeHook) -> None:
    go_on = read_outcome(HookEvent.STOP, [_run(make_hook, 0, _json(decision="block", reason="tests fail: fix them"))])
    stop = read_outcome(HookEvent.STOP, [_run(make_hook, 0, _json(**{"continue": False, "stopReason": "budget"}))])

    assert go_on.blocked
    assert go_on.reason == "tests fail: fix them"
    assert stop.stopped
    assert stop.stop_reason == "budget"
    assert not stop.blocked


def test_a_system_message_is_a_warning_for_the_user(make_hook: MakeHook) -> None:
    outcome = read_outcome(HookEvent.SESSION_START, [_run(make_hook, 0, _json(systemMessage="hooks are on"))])

    assert outcome.warnings == ["hooks are on"]
