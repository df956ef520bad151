"""A PreToolUse hook's `updatedInput` (real hook programs, a model the test plays): the call runs
with the new arguments, the gate judges them again, and the call's line and history show them."""

import json
import os
from pathlib import Path
from typing import Any

from pydantic_ai.messages import ModelRequest, ModelResponse, ToolCallPart, ToolReturnPart

from decode.harness.priority import Message
from decode.hooks.config import HookCommand, HookConfig
from decode.hooks.dispatch import Hooks
from decode.hooks.events import HookEvent
from decode.permissions.gate import PermissionGate
from decode.permissions.rules import parse_rule
from decode.permissions.settings_layers import SettingsFile
from decode.permissions.types import Decision, Layer
from tests.unit.harness.conftest import Step


def _rewriting(tmp_path: Path, matcher: str, updated: dict[str, Any], decision: str = "allow") -> Hooks:
    """A user's hook that answers every `matcher` call with `decision` and `updated` as its input."""
    said = {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": decision}}
    said["hookSpecificOutput"]["updatedInput"] = updated
    (tmp_path / "said.json").write_text(json.dumps(said))
    source = SettingsFile(Layer.USER, tmp_path / "settings.json", shared=False)
    hook = HookCommand(HookEvent.PRE_TOOL_USE, matcher, f"cat {tmp_path / 'said.json'}", 20.0, source)
    return Hooks(HookConfig([hook]), tmp_path, {"PATH": os.environ["PATH"]})


def _results(h: Any) -> list[str]:
    return [
        str(part.content)
        for message in h.loop.history
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    ]


def _calls(h: Any) -> list[dict[str, Any]]:
    return [
        part.args_as_dict()
        for message in h.loop.history
        if isinstance(message, ModelResponse)
        for part in message.parts
        if isinstance(part, ToolCallPart)
    ]


async def test_the_call_runs_with_the_hooks_input_and_shows_it(harness, tmp_path: Path) -> None:
    hooks = _rewriting(tmp_path, "Bash", {"command": "echo rewritten > out.txt"})
    gate = PermissionGate([parse_rule("Bash(echo:*)", Decision.ALLOW, None)], workspace=tmp_path)
    h = harness([Step(calls=[("bash", {"command": "echo original > out.txt"})]), Step("ok")], gate=gate, hooks=hooks)

    h.runner.send(Message("go"))

    assert (await h.ended()).outcome == "finished"
    assert (tmp_path / "out.txt").read_text() == "rewritten\n"
    (finished,) = [event for event in h.events if event.kind == "tool_result"]
    assert finished.result.args == {"command": "echo rewritten > out.txt"}  # the call's line shows what ran
    assert _calls(h) == [{"command": "echo rewritten > out.txt"}]  # and so does the history


async def test_a_hook_cannot_launder_a_denied_path(harness, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("notes\n")
    (tmp_path / "private").mkdir()
    (tmp_path / "private" / "key.txt").write_text("SECRET-VALUE\n")
    hooks = _rewriting(tmp_path, "Read", {"file_path": str(tmp_path / "private" / "key.txt")})
    rules = [parse_rule("Read(private/**)", Decision.DENY, None)]
    gate = PermissionGate(rules, workspace=tmp_path)
    h = harness([Step(calls=[("read", {"path": "notes.txt"})]), Step("ok")], gate=gate, hooks=hooks)

    h.runner.send(Message("read the notes"))

    assert (await h.ended()).outcome == "finished"
    (result,) = _results(h)
    assert "SECRET-VALUE" not in result
    assert "Permission denied" in result
    assert "as a PreToolUse hook rewrote it" in result


async def test_a_hooks_allow_does_not_pass_a_secret_it_rewrote_the_call_to(harness, tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("notes\n")
    (tmp_path / ".env").write_text("API_KEY=SECRET-VALUE\n")
    hooks = _rewriting(tmp_path, "Read", {"file_path": str(tmp_path / ".env")})
    h = harness(
        [Step(calls=[("read", {"path": "notes.txt"})]), Step("ok")],
        gate=PermissionGate(workspace=tmp_path),
        hooks=hooks,
    )

    h.runner.send(Message("read the notes"))

    assert (await h.ended()).outcome == "finished"
    (result,) = _results(h)
    assert "SECRET-VALUE" not in result  # the secret file asks, and no one can approve here


async def test_an_input_the_tool_cannot_take_is_refused(harness, tmp_path: Path) -> None:
    hooks = _rewriting(tmp_path, "Bash", {"command": "echo hi", "shell": "zsh"})
    gate = PermissionGate([parse_rule("Bash(echo:*)", Decision.ALLOW, None)], workspace=tmp_path)
    h = harness([Step(calls=[("bash", {"command": "echo original"})]), Step("ok")], gate=gate, hooks=hooks)

    h.runner.send(Message("go"))

    assert (await h.ended()).outcome == "finished"
    (result,) = _results(h)
    assert "updatedInput does not fit bash: it takes no 'shell'" in result
