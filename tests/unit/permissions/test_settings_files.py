"""Three settings layers, merged; broken files and rules reported with path and line, then skipped."""

import json
from pathlib import Path

import pytest

from decode.permissions.settings_files import add_allow_rules, load_permission_settings, settings_paths
from decode.permissions.types import Decision, Layer, Mode


def write(path: Path, content: dict | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else json.dumps(content, indent=2), encoding="utf-8")
    return path


def layers(project: Path) -> dict[Layer, Path]:
    return settings_paths(project)


def test_no_files_means_no_rules_and_no_problems(project: Path) -> None:
    loaded = load_permission_settings(project)
    assert (loaded.rules, loaded.problems, loaded.default_mode) == ([], [], None)


def test_rules_come_from_all_three_layers_with_their_files(project: Path) -> None:
    paths = layers(project)
    write(paths[Layer.USER], {"permissions": {"deny": ["Bash(rm:*)"]}})
    write(paths[Layer.PROJECT], {"permissions": {"allow": ["Bash(git status)"]}})
    write(paths[Layer.LOCAL], {"permissions": {"ask": ["Bash(git push:*)"]}})
    rules = {rule.text: rule for rule in load_permission_settings(project).rules}
    assert {text: rule.source.layer for text, rule in rules.items() if rule.source} == {
        "Bash(rm:*)": Layer.USER,
        "Bash(git status)": Layer.PROJECT,
        "Bash(git push:*)": Layer.LOCAL,
    }
    assert rules["Bash(rm:*)"].source is not None
    assert rules["Bash(rm:*)"].source.path == Path.home() / ".decode" / "settings.json"


def test_the_later_layer_wins_a_conflict_but_a_deny_anywhere_stands(project: Path) -> None:
    paths = layers(project)
    write(paths[Layer.USER], {"permissions": {"deny": ["Bash(curl:*)"], "ask": ["Bash(git push:*)"]}})
    write(paths[Layer.LOCAL], {"permissions": {"allow": ["Bash(curl:*)", "Bash(git push:*)"]}})
    actions = {(rule.action, rule.text) for rule in load_permission_settings(project).rules}
    assert (Decision.DENY, "Bash(curl:*)") in actions
    assert (Decision.ALLOW, "Bash(git push:*)") in actions
    assert (Decision.ASK, "Bash(git push:*)") not in actions


def test_the_later_default_mode_wins_and_claude_spellings_work(project: Path) -> None:
    paths = layers(project)
    write(paths[Layer.USER], {"permissions": {"defaultMode": "plan"}})
    write(paths[Layer.PROJECT], {"permissions": {"defaultMode": "acceptEdits"}})
    loaded = load_permission_settings(project)
    assert loaded.default_mode is Mode.ACCEPT_EDITS
    assert loaded.mode_source is not None
    assert loaded.mode_source.layer is Layer.PROJECT


def test_a_malformed_file_is_reported_with_its_line_and_the_others_still_load(project: Path) -> None:
    paths = layers(project)
    broken = write(paths[Layer.PROJECT], '{\n  "permissions": {\n    "allow": ["Bash(ls)",]\n  }\n}\n')
    write(paths[Layer.USER], {"permissions": {"deny": ["Bash(rm:*)"]}})
    loaded = load_permission_settings(project)
    assert [rule.text for rule in loaded.rules] == ["Bash(rm:*)"]
    (problem,) = loaded.problems
    assert (problem.path, problem.line) == (broken, 3)
    assert str(problem).startswith(f"{broken}:3: not valid JSON")


def test_a_bad_rule_is_skipped_with_its_line_and_its_neighbours_kept(project: Path) -> None:
    text = '{"permissions": {\n  "deny": [\n    "Bash(rm:*)",\n    "Bаsh(curl:*)",\n    42,\n    "Read(.env)"\n  ]\n}}'
    path = write(layers(project)[Layer.PROJECT], text)
    loaded = load_permission_settings(project)
    assert [rule.text for rule in loaded.rules] == ["Bash(rm:*)", "Read(.env)"]
    assert [(p.path, p.line) for p in loaded.problems] == [(path, 4), (path, 5)]
    assert [rule.source.line for rule in loaded.rules if rule.source] == [3, 6]


def test_wrong_shapes_are_reported_not_fatal(project: Path) -> None:
    paths = layers(project)
    write(paths[Layer.USER], "[1, 2]")
    write(paths[Layer.PROJECT], {"permissions": {"allow": "Bash(ls)", "defaultMode": "yolo"}})
    messages = [problem.message for problem in load_permission_settings(project).problems]
    assert len(messages) == 3
    assert any('"permissions" must be an object' in m for m in messages)
    assert any('"allow" must be a list' in m for m in messages)
    assert any("unknown permission mode 'yolo'" in m for m in messages)


def test_always_appends_to_the_local_file_and_keeps_the_rest(project: Path) -> None:
    local = write(layers(project)[Layer.LOCAL], {"model": "x", "permissions": {"allow": ["Bash(ls)"], "deny": []}})
    assert add_allow_rules(project, ["Bash(ls)", "Bash(npm test)"]) == local
    assert json.loads(local.read_text()) == {
        "model": "x",
        "permissions": {"allow": ["Bash(ls)", "Bash(npm test)"], "deny": []},
    }


def test_always_creates_the_local_file(project: Path) -> None:
    path = add_allow_rules(project, ["Edit(/a.py)"])
    assert path == project / ".decode" / "settings.local.json"
    assert [rule.text for rule in load_permission_settings(project).rules] == ["Edit(/a.py)"]


def test_always_never_overwrites_a_broken_local_file(project: Path) -> None:
    local = write(layers(project)[Layer.LOCAL], "{ not json")
    with pytest.raises(ValueError, match="not valid JSON"):
        add_allow_rules(project, ["Bash(ls)"])
    assert local.read_text() == "{ not json"
