"""The rules in force and their files, as lines and JSON fields (`decode permissions`, `/permissions`)."""

import json
from pathlib import Path

from decode.permissions.gate import PermissionGate
from decode.permissions.project_trust import NOT_TRUSTED
from decode.permissions.report import describe_rules, describe_settings, rules_json
from decode.permissions.types import Mode


def test_a_gate_without_rules_says_the_mode_decides(tmp_path: Path) -> None:
    gate = PermissionGate(mode=Mode.PLAN, workspace=tmp_path)
    assert describe_rules(gate, "--permission-mode") == [
        "mode: plan (--permission-mode)",
        "no rules: the mode decides every call",
    ]
    assert describe_settings(gate) == []  # not read from files: nothing to say about them
    assert rules_json(gate, "built-in") == {"mode": "plan", "mode_source": "built-in", "rules": [], "problems": []}


def test_rules_come_with_their_file_and_untrusted_grants_are_named(project: Path) -> None:
    settings = project / ".decode" / "settings.json"
    settings.parent.mkdir()
    settings.write_text(json.dumps({"permissions": {"deny": ["Bash(rm:*)"], "allow": ["Read"]}}), encoding="utf-8")
    gate = PermissionGate.from_settings(project, secret_files=())

    lines = describe_rules(gate, "built-in")
    assert lines[0] == "mode: default (built-in)"
    assert lines[1].split() == ["deny", "Bash(rm:*)", f"{settings}:1", "(project)"]
    assert describe_settings(gate)[:3] == [
        "files read, lowest priority first:",
        f"  {settings} (project, from the repository)",
        f"not in force: {NOT_TRUSTED}",
    ]
    shown = rules_json(gate, "built-in")
    assert [(rule["action"], rule["rule"], rule["layer"]) for rule in shown["rules"]] == [
        ("deny", "Bash(rm:*)", "project")
    ]
    assert shown["files"] == [{"path": str(settings), "layer": "project", "shared": True}]
    assert shown["not_in_force"]  # the allow rule waits for `decode permissions trust`
    assert json.loads(json.dumps(shown)) == shown  # plain JSON all the way down
