"""The hooks around real turns and tool calls (real hook programs, a model the test plays):
PreToolUse blocks or allows, PostToolUse feedback, UserPromptSubmit, Stop, SessionStart."""

import json
import os
from pathlib import Path
from typing import Any

from pydantic_ai.messages import ModelRequest, ToolReturnPart

from decode.harness.hook_turns import session_end
from decode.harness.priority import Message
from decode.hooks.config import HookCommand, HookConfig
from decode.hooks.dispatch import Hooks
from decode.hooks.events import HookEvent
from decode.hooks.tools import notify_before
from decode.permissions.gate import PermissionGate
from decode.permissions.hook import Answer, Approval
from decode.permissions.rules import parse_rule
from decode.permissions.settings_layers import SettingsFile
from decode.permissions.types import Decision, Layer
from tests.unit.harness.conftest import Step, user_texts

LS = [("bash", {"command": "ls"})]


def _hooks(tmp_path: Path, *configured: tuple[HookEvent, str, str], trusted: bool = True) -> Hooks:
    """Hooks of the project's own settings file: (event, matcher, command) each."""
    source = SettingsFile(Layer.PROJECT, tmp_path / ".claude/settings.json", shared=True)
    commands = [HookCommand(event, matcher, command, 20.0, source) for event, matcher, command in configured]
    return Hooks(HookConfig(commands), tmp_path, {"PATH": os.environ["PATH"]}, trusted=lambda: trusted)


def _tool_results(h: Any) -> list[str]:
    return [
        str(part.content)
        for message in h.loop.history
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    ]


async def test_exit_2_blocks_the_call_and_the_model_reads_the_stderr(harness, tmp_path: Path) -> None:
    block = "grep -q 'rm -rf' && { echo 'rm -rf is not allowed here' >&2; exit 2; }; exit 0"
    hooks = _hooks(tmp_path, (HookEvent.PRE_TOOL_USE, "Bash", block))
    (tmp_path / "build").mkdir()
    gate = PermissionGate([parse_rule("Bash", Decision.ALLOW, None)], workspace=tmp_path)
    h = harness([Step(calls=[("bash", {"command": "rm -rf build"})]), Step("ok")], gate=gate, hooks=hooks)

    h.runner.send(Message("clean up"))

    assert (await h.ended()).outcome == "finished"
    assert (tmp_path / "build").is_dir()
    assert "a PreToolUse hook refused this call: rm -rf is not allowed here" in _tool_results(h)[0]


async def test_a_hooks_allow_answers_the_modes_question_but_not_an_ask_rule(harness, tmp_path: Path) -> None:
    allow = json.dumps({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}})
    hooks = _hooks(tmp_path, (HookEvent.PRE_TOOL_USE, "Bash", f"echo '{allow}'"))
    asked: list[str] = []

    async def approve(tool: str, args: dict[str, Any], verdict: Any) -> Approval:
        asked.append(args["command"])
        return Approval(Answer.NO)

    gate = PermissionGate([parse_rule("Bash(touch:*)", Decision.ASK, None)], workspace=tmp_path)
    calls = [("bash", {"command": "echo hi > a.txt"}), ("bash", {"command": "touch b.txt"})]
    h = harness([Step(calls=calls), Step("ok")], gate=gate, approve=approve, hooks=hooks)

    h.runner.send(Message("go"))

    assert (await h.ended()).outcome == "finished"
    assert (tmp_path / "a.txt").read_text() == "hi\n"  # default mode would have asked: the hook's allow answered
    assert asked == ["touch b.txt"]
    assert not (tmp_path / "b.txt").exists()


async def test_post_tool_use_sees_the_call_and_its_feedback_reaches_the_model(harness, tmp_path: Path) -> None:
    record = 'cat >> calls.jsonl; echo >> calls.jsonl; echo "lint: 2 warnings" >&2; exit 2'
    hooks = _hooks(tmp_path, (HookEvent.POST_TOOL_USE, "Edit|Write", record))
    h = harness([Step(calls=[("write", {"path": "a.py", "content": "x = 1\n"}), *LS]), Step("ok")], hooks=hooks)

    h.runner.send(Message("write it"))

    assert (await h.ended()).outcome == "finished"
    (seen,) = [json.loads(line) for line in (tmp_path / "calls.jsonl").read_text().splitlines()]  # not `ls`
    assert seen["hook_event_name"] == "PostToolUse"
    assert seen["tool_name"] == "Write"
    assert seen["tool_input"] == {"file_path": str(tmp_path / "a.py"), "content": "x = 1\n"}
    assert seen["cwd"] == str(tmp_path)
    assert seen["tool_use_id"] == "call_1_0"
    assert "<hook-feedback>\nlint: 2 warnings\n</hook-feedback>" in _tool_results(h)[0]


async def test_a_prompt_hook_adds_context_or_blocks_the_prompt(harness, tmp_path: Path) -> None:
    judge = "grep -q password && { echo 'no passwords in prompts' >&2; exit 2; }; echo 'Branch: main'"
    hooks = _hooks(tmp_path, (HookEvent.USER_PROMPT_SUBMIT, "", judge))
    h = harness([Step("ok")], hooks=hooks)

    h.runner.send(Message("my password is hunter2"))
    await h.ended()
    h.runner.send(Message("what branch?"))
    await h.ended(2)

    assert len(h.model.requests) == 1  # the blocked prompt never reached the model
    notice = next(event for event in h.events if event.kind == "notice")
    assert notice.message == "a UserPromptSubmit hook blocked this prompt: no passwords in prompts"
    assert user_texts(h.loop.history) == ["what branch?\n\n<hook-context>\nBranch: main\n</hook-context>"]


async def test_a_stop_hook_sends_the_agent_back_once_and_session_start_runs_first(harness, tmp_path: Path) -> None:
    stop = (
        "grep -q '\"stop_hook_active\": true' && exit 0; "
        'echo \'{"decision": "block", "reason": "run the tests before you stop"}\''
    )
    hooks = _hooks(
        tmp_path,
        (HookEvent.SESSION_START, "startup", "echo 'Project: shop'"),
        (HookEvent.STOP, "", stop),
    )
    h = harness([Step("done"), Step("tests pass")], hooks=hooks)

    h.runner.send(Message("fix it"))

    assert (await h.ended()).outcome == "finished"
    assert user_texts(h.loop.history) == [
        "fix it\n\n<hook-context>\nProject: shop\n</hook-context>",
        "run the tests before you stop",
    ]


async def test_an_untrusted_repositorys_hooks_do_not_run(harness, tmp_path: Path) -> None:
    hooks = _hooks(tmp_path, (HookEvent.USER_PROMPT_SUBMIT, "", "touch ran"), trusted=False)
    h = harness([Step("ok")], hooks=hooks)

    h.runner.send(Message("hi"))

    assert (await h.ended()).outcome == "finished"
    assert not (tmp_path / "ran").exists()
    assert user_texts(h.loop.history) == ["hi"]


async def test_session_end_runs_the_hooks_its_reason_matches(harness, tmp_path: Path) -> None:
    hooks = _hooks(
        tmp_path,
        (HookEvent.SESSION_END, "", "cat > ended.json"),
        (HookEvent.SESSION_END, "clear", "touch cleared"),
    )
    h = harness([], hooks=hooks)

    await session_end(h.loop, "prompt_input_exit")

    ended = json.loads((tmp_path / "ended.json").read_text())
    assert (ended["hook_event_name"], ended["reason"]) == ("SessionEnd", "prompt_input_exit")
    assert not (tmp_path / "cleared").exists()


async def test_a_notification_hook_hears_each_approval_question(harness, tmp_path: Path) -> None:
    hooks = _hooks(tmp_path, (HookEvent.NOTIFICATION, "permission_prompt", "cat > asked.json"))

    async def approve(tool: str, args: dict[str, Any], verdict: Any) -> Approval:
        return Approval(Answer.NO)

    approve = notify_before(hooks, approve)  # as the hooks step wraps the Permission Hook's question
    touch = [("bash", {"command": "touch x"})]  # default mode asks (ls would not: it only reads)
    h = harness([Step(calls=touch), Step("ok")], gate=PermissionGate(workspace=tmp_path), approve=approve, hooks=hooks)

    h.runner.send(Message("look"))
    await h.ended()
    await h.wait_until(lambda: (tmp_path / "asked.json").is_file() and (tmp_path / "asked.json").stat().st_size > 0)

    told = json.loads((tmp_path / "asked.json").read_text())
    assert told["notification_type"] == "permission_prompt"
    assert told["message"] == "decode needs your permission to use Bash"
