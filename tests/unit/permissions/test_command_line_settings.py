"""`--settings FILE_OR_JSON`: the command-line layer, above every settings file, read safely, checked at once."""

import json
import os
from pathlib import Path

import pytest

from decode.permissions.command_line_settings import (
    INLINE,
    CommandLineSettings,
    SettingsArgumentError,
    read_command_line_settings,
)
from decode.permissions.gate import PermissionGate
from decode.permissions.settings_files import load_permission_settings, settings_paths
from decode.permissions.types import Decision, Layer, Mode


def write(path: Path, content: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(content), encoding="utf-8")
    return path


def given(content: dict) -> CommandLineSettings:
    return CommandLineSettings(INLINE, json.dumps(content))


def test_inline_json_and_a_file_are_both_read(project: Path) -> None:
    inline = read_command_line_settings('{"permissions": {"deny": ["Bash(rm:*)"]}}', project)
    assert inline.path == INLINE
    write(project / "run.json", {"permissions": {"allow": ["Read"]}})
    from_file = read_command_line_settings("run.json", project)
    assert from_file.path == project / "run.json"
    assert json.loads(from_file.text) == {"permissions": {"allow": ["Read"]}}


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("{not json", "--settings (line 1): not valid JSON"),
        ('{"permissions": {"deny": ["Bash(ls"]}}', "--settings (line 1): rule 'Bash(ls'"),
        ('{"permissions": []}', '"permissions" must be an object'),
        ("missing.json", "--settings missing.json: no such file"),
        ("", "--settings: give a settings file or a JSON object"),
    ],
)
def test_what_cannot_be_used_is_one_line_naming_it(project: Path, value: str, message: str) -> None:
    with pytest.raises(SettingsArgumentError) as raised:
        read_command_line_settings(value, project)
    assert message in str(raised.value)
    assert "\n" not in str(raised.value)


def test_a_fifo_is_refused_without_waiting_for_a_writer(project: Path) -> None:
    os.mkfifo(project / "pipe.json")
    with pytest.raises(SettingsArgumentError, match=r"pipe\.json"):
        read_command_line_settings("pipe.json", project)


def test_the_command_line_is_the_highest_layer_for_the_mode(project: Path) -> None:
    paths = settings_paths(project)
    write(paths[Layer.USER], {"permissions": {"defaultMode": "plan"}})
    write(paths[Layer.LOCAL], {"permissions": {"defaultMode": "default"}})
    loaded = load_permission_settings(project, command_line=given({"permissions": {"defaultMode": "acceptEdits"}}))
    assert loaded.default_mode is Mode.ACCEPT_EDITS
    assert loaded.mode_source is not None
    assert loaded.mode_source.layer is Layer.COMMAND_LINE
    assert [file.layer for file in loaded.files] == [Layer.USER, Layer.LOCAL, Layer.COMMAND_LINE]


def test_the_command_line_may_choose_bypass_as_the_users_file_may(project: Path) -> None:
    loaded = load_permission_settings(
        project, command_line=given({"permissions": {"defaultMode": "bypassPermissions"}})
    )
    assert loaded.default_mode is Mode.BYPASS
    assert loaded.problems == []


def test_its_allow_needs_no_trust_but_a_deny_in_any_file_still_stands(project: Path) -> None:
    write(settings_paths(project)[Layer.USER], {"permissions": {"deny": ["Bash(rm:*)"]}})
    flag = given({"permissions": {"allow": ["Bash(rm:*)", "Bash(make test)"], "deny": ["Bash(curl:*)"]}})
    loaded = load_permission_settings(project, command_line=flag)
    by_text = {(rule.action, rule.text): rule for rule in loaded.rules}
    assert (Decision.DENY, "Bash(rm:*)") in by_text
    assert (Decision.ALLOW, "Bash(rm:*)") not in by_text  # a deny anywhere stands over an allow
    assert by_text[Decision.ALLOW, "Bash(make test)"].source.layer is Layer.COMMAND_LINE  # type: ignore[union-attr]
    assert by_text[Decision.DENY, "Bash(curl:*)"].source.path == INLINE  # type: ignore[union-attr]


def test_a_project_file_that_is_not_trusted_grants_nothing_beside_it(project: Path) -> None:
    write(settings_paths(project)[Layer.PROJECT], {"permissions": {"allow": ["Bash(make:*)"]}})
    loaded = load_permission_settings(project, command_line=given({"permissions": {"ask": ["Read"]}}))
    assert [rule.text for rule in loaded.rules] == ["Read"]
    assert not loaded.trusted


async def test_the_gate_refuses_what_the_command_line_denies(project: Path) -> None:
    from decode.tools.bash import BASH

    flag = given({"permissions": {"deny": ["Bash(rm:*)"]}})
    gate = PermissionGate.from_settings(project, mode=Mode.BYPASS, secret_files=(), command_line=flag)
    verdict = await gate.check("bash", {"command": "rm -rf build"}, BASH.traits)
    assert verdict.decision is Decision.DENY
    assert verdict.source is not None
    assert verdict.source.layer is Layer.COMMAND_LINE


def test_keys_decode_does_not_use_are_noted_once(project: Path) -> None:
    loaded = load_permission_settings(project, command_line=given({"model": "opus"}))
    assert [str(note) for note in loaded.notes] == ["--settings: holds keys decode does not use: model"]
