"""Three settings layers, merged; problems reported with path and line; a broken file keeps its denies."""

import json
import os
import stat
from pathlib import Path

import pytest

from decode.permissions.gate import PermissionGate
from decode.permissions.project_trust import ProjectGrants
from decode.permissions.rules import RULE_NAMES
from decode.permissions.settings_files import (
    PermissionSettings,
    add_allow_rules,
    good_copy_path,
    load_permission_settings,
    repository_grants,
    settings_paths,
)
from decode.permissions.settings_json import MAX_BYTES, MAX_DEPTH
from decode.permissions.types import Decision, Layer, Mode, RuleSource
from decode.tools.bash import BASH
from decode.tools.read import READ
from decode.tools.write import WRITE


def write(path: Path, content: dict | str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else json.dumps(content, indent=2), encoding="utf-8")
    return path


def layers(project: Path) -> dict[Layer, Path]:
    return settings_paths(project)


def test_no_files_means_no_rules_and_no_problems(project: Path) -> None:
    loaded = load_permission_settings(project, trust_project=True)
    assert (loaded.rules, loaded.problems, loaded.default_mode) == ([], [], None)


def test_rules_come_from_all_three_layers_with_their_files(project: Path) -> None:
    paths = layers(project)
    write(paths[Layer.USER], {"permissions": {"deny": ["Bash(rm:*)"]}})
    write(paths[Layer.PROJECT], {"permissions": {"allow": ["Bash(git status)"]}})
    write(paths[Layer.LOCAL], {"permissions": {"ask": ["Bash(git push:*)"]}})
    rules = {rule.text: rule for rule in load_permission_settings(project, trust_project=True).rules}
    assert {text: rule.source.layer for text, rule in rules.items() if rule.source} == {
        "Bash(rm:*)": Layer.USER,
        "Bash(git status)": Layer.PROJECT,
        "Bash(git push:*)": Layer.LOCAL,
    }
    assert rules["Bash(rm:*)"].source is not None
    assert rules["Bash(rm:*)"].source.path == Path.home() / ".decode" / "settings.json"


def test_a_deny_or_an_ask_anywhere_stands_over_an_allow_of_the_same_rule(project: Path) -> None:
    # As Claude Code evaluates rules (deny, then ask, then allow), whichever file wrote them (ADR-0081).
    paths = layers(project)
    write(paths[Layer.USER], {"permissions": {"deny": ["Bash(curl:*)"], "ask": ["Bash(git push:*)"]}})
    write(paths[Layer.LOCAL], {"permissions": {"allow": ["Bash(curl:*)", "Bash(git push:*)", "Bash(ls)"]}})
    actions = {(rule.action, rule.text) for rule in load_permission_settings(project, trust_project=True).rules}
    assert actions == {
        (Decision.DENY, "Bash(curl:*)"),
        (Decision.ASK, "Bash(git push:*)"),
        (Decision.ALLOW, "Bash(ls)"),
    }


def test_the_later_default_mode_wins_and_claude_spellings_work(project: Path) -> None:
    paths = layers(project)
    write(paths[Layer.USER], {"permissions": {"defaultMode": "plan"}})
    write(paths[Layer.PROJECT], {"permissions": {"defaultMode": "acceptEdits"}})
    loaded = load_permission_settings(project, trust_project=True)
    assert loaded.default_mode is Mode.ACCEPT_EDITS
    assert loaded.mode_source is not None
    assert loaded.mode_source.layer is Layer.PROJECT


def test_a_malformed_file_is_reported_with_its_line_and_the_others_still_load(project: Path) -> None:
    paths = layers(project)
    broken = write(paths[Layer.PROJECT], '{\n  "permissions": {\n    "allow": ["Bash(ls)",]\n  }\n}\n')
    write(paths[Layer.USER], {"permissions": {"deny": ["Bash(rm:*)"]}})
    loaded = load_permission_settings(project, trust_project=True)
    assert "Bash(rm:*)" in [rule.text for rule in loaded.rules]
    (problem,) = loaded.problems
    assert (problem.path, problem.line) == (broken, 3)
    assert str(problem).startswith(f"{broken}:3: not valid JSON")


def test_a_bad_allow_rule_is_skipped_with_its_line_and_its_neighbours_kept(project: Path) -> None:
    text = '{"permissions": {\n  "allow": [\n    "Bash(ls)",\n    "Bаsh(curl:*)",\n    42,\n    "Read(.env)"\n  ]\n}}'
    path = write(layers(project)[Layer.LOCAL], text)
    loaded = load_permission_settings(project, trust_project=True)
    assert [rule.text for rule in loaded.rules] == ["Bash(ls)", "Read(.env)"]
    assert [(p.path, p.line) for p in loaded.problems] == [(path, 4), (path, 5)]
    assert [rule.source.line for rule in loaded.rules if rule.source] == [3, 6]
    assert all(p.message.endswith("skipped") for p in loaded.problems)


def test_wrong_shapes_are_reported_not_fatal(project: Path) -> None:
    paths = layers(project)
    write(paths[Layer.PROJECT], {"permissions": {"allow": "Bash(ls)", "defaultMode": "yolo", "deny": ["Read(.env)"]}})
    loaded = load_permission_settings(project, trust_project=True)
    messages = [problem.message for problem in loaded.problems]
    assert len(messages) == 2
    assert any('"allow" must be a list' in m for m in messages)
    assert any("unknown permission mode 'yolo'" in m for m in messages)
    assert [rule.text for rule in loaded.rules] == ["Read(.env)"]
    assert loaded.default_mode is None


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
    assert [rule.text for rule in load_permission_settings(project, trust_project=True).rules] == ["Edit(/a.py)"]


def test_always_never_overwrites_a_broken_local_file(project: Path) -> None:
    local = write(layers(project)[Layer.LOCAL], "{ not json")
    with pytest.raises(ValueError, match="not valid JSON"):
        add_allow_rules(project, ["Bash(ls)"])
    assert local.read_text() == "{ not json"


# --- Broken files fail safe (ADR-0042) ----------------------------------------------------------

REFUSED = {"Bash", "Read", "Edit", "Write", "Glob", "Grep", "WebFetch", "Lsp"}
GOOD = {"permissions": {"deny": ["Bash(rm:*)", "Read(.env)"], "allow": ["Bash(git status)"]}}


def denied_tools(loaded: PermissionSettings) -> set[str]:
    """The tools every call of which is denied (bare deny rules)."""
    return {rule.tool for rule in loaded.rules if rule.action is Decision.DENY and rule.specifier is None}


def copy_of(path: Path) -> Path:
    return good_copy_path(Path.home(), path)


@pytest.mark.parametrize(
    "raw",
    [
        b"\xef\xbb\xbf" + json.dumps(GOOD).encode(),  # UTF-8 with a BOM (Windows editors write one)
        json.dumps(GOOD).encode("utf-16"),  # UTF-16 with its BOM
        json.dumps(GOOD).encode("utf-16-le"),  # without: JSON's own detection
        b"\xef\xbb\xbf\n\n" + json.dumps(GOOD, indent=2).encode(),
    ],
    ids=["utf-8-bom", "utf-16", "utf-16-le", "bom-and-lines"],
)
def test_a_bom_or_utf_16_is_accepted(project: Path, raw: bytes) -> None:
    path = layers(project)[Layer.PROJECT]
    path.parent.mkdir(parents=True)
    path.write_bytes(raw)
    loaded = load_permission_settings(project, trust_project=True)
    assert {rule.text for rule in loaded.rules} == {"Bash(rm:*)", "Read(.env)", "Bash(git status)"}
    assert loaded.problems == []


def test_a_bom_does_not_shift_the_lines_rules_are_found_on(project: Path) -> None:
    path = layers(project)[Layer.USER]
    path.parent.mkdir(parents=True)
    path.write_bytes(b'\xef\xbb\xbf{"permissions": {\n  "deny": [\n    "Bash(rm:*)"\n  ]\n}}')
    (rule,) = load_permission_settings(project, trust_project=True).rules
    assert rule.source == RuleSource(Layer.USER, path, 3)


def test_a_broken_file_with_no_good_copy_refuses_every_tool_a_rule_could_name(project: Path) -> None:
    broken = write(layers(project)[Layer.PROJECT], '{"permissions": {\n  "deny": ["Bash(rm:*)",]\n}}')
    loaded = load_permission_settings(project, trust_project=True)
    assert denied_tools(loaded) == REFUSED == set(RULE_NAMES)
    assert {rule.source for rule in loaded.rules} == {RuleSource(Layer.PROJECT, broken, 2)}
    (problem,) = loaded.problems
    assert (problem.path, problem.line, problem.level) == (broken, 2, "warning")
    assert "not valid JSON" in problem.message
    assert "no good copy of it is kept, so every tool call a rule could name" in problem.message
    assert "refused until it is fixed" in problem.message
    assert not copy_of(broken).exists()  # a broken file is never kept as the good copy


async def test_the_refusal_says_why_and_holds_in_bypass_mode(project: Path) -> None:
    broken = write(layers(project)[Layer.LOCAL], "{oops")
    gate = PermissionGate.from_settings(project, mode=Mode.BYPASS)
    for tool, args in [(BASH, {"command": "ls"}), (READ, {"path": "README.md"}), (WRITE, {"path": "a", "content": ""})]:
        verdict = await gate.check(tool.name, args, tool.traits)
        assert verdict.decision is Decision.DENY, tool.name
        assert "refused: its settings file is broken and no good copy of it is kept" in verdict.reason
        assert verdict.source == RuleSource(Layer.LOCAL, broken, 1)


def test_a_broken_file_is_replaced_by_its_last_good_copy(project: Path) -> None:
    path = write(layers(project)[Layer.PROJECT], GOOD)
    assert load_permission_settings(project, trust_project=True).problems == []
    copy = copy_of(path)
    assert copy.parent == Path.home() / ".decode" / "settings-cache"
    assert json.loads(copy.read_text()) == GOOD
    assert stat.S_IMODE(copy.stat().st_mode) == 0o600
    assert stat.S_IMODE(copy.parent.stat().st_mode) == 0o700
    assert (copy.parent / ".gitignore").read_text().splitlines()[-1] == "*"

    write(path, json.dumps(GOOD)[:-3])  # cut short, as a crashed editor leaves it
    loaded = load_permission_settings(project, trust_project=True)
    assert {rule.text for rule in loaded.rules} == {"Bash(rm:*)", "Read(.env)", "Bash(git status)"}
    assert denied_tools(loaded) == set()
    assert {rule.source.path for rule in loaded.rules if rule.source} == {copy}  # `decode permissions` shows it
    (problem,) = loaded.problems
    assert (problem.path, problem.line) == (path, 1)
    assert "its last good copy is in force" in problem.message
    assert str(copy) in problem.message
    assert json.loads(copy.read_text()) == GOOD  # the copy is not touched


def test_the_good_copy_follows_the_file_and_a_fix_ends_the_warning(project: Path) -> None:
    path = write(layers(project)[Layer.LOCAL], GOOD)
    load_permission_settings(project, trust_project=True)
    changed = {"permissions": {"deny": ["Bash(curl:*)"]}}
    write(path, changed)
    assert load_permission_settings(project, trust_project=True).problems == []
    assert json.loads(copy_of(path).read_text()) == changed
    write(path, "{")
    assert [rule.text for rule in load_permission_settings(project, trust_project=True).rules] == ["Bash(curl:*)"]
    write(path, changed)
    assert load_permission_settings(project, trust_project=True).problems == []


def test_a_corrupt_good_copy_counts_as_none(project: Path) -> None:
    path = write(layers(project)[Layer.PROJECT], GOOD)
    load_permission_settings(project, trust_project=True)
    copy_of(path).write_text("[" * 100_000)
    write(path, "{")
    assert denied_tools(load_permission_settings(project, trust_project=True)) == REFUSED


def test_each_file_has_its_own_copy(project: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    mine = write(layers(project)[Layer.PROJECT], GOOD)
    theirs = write(layers(other)[Layer.PROJECT], {"permissions": {"allow": ["Bash"]}})
    load_permission_settings(project, trust_project=True)
    load_permission_settings(other)
    assert copy_of(mine) != copy_of(theirs)
    write(mine, "{")
    assert "Bash" not in {rule.text for rule in load_permission_settings(project, trust_project=True).rules}


def test_a_copy_that_cannot_be_written_changes_nothing(project: Path) -> None:
    (Path.home() / ".decode").mkdir()
    (Path.home() / ".decode" / "settings-cache").write_text("not a folder")
    write(layers(project)[Layer.PROJECT], GOOD)
    loaded = load_permission_settings(project, trust_project=True)
    assert loaded.problems == []
    assert len(loaded.rules) == 3


def test_a_local_file_that_is_broken_while_the_project_one_is_fine(project: Path) -> None:
    paths = layers(project)
    write(paths[Layer.PROJECT], {"permissions": {"deny": ["Bash(rm:*)"], "allow": ["Bash(npm test)"]}})
    local = write(paths[Layer.LOCAL], '{"permissions": {"allow": ["Bash(ls)"}}')
    loaded = load_permission_settings(project, trust_project=True)
    assert denied_tools(loaded) == REFUSED
    assert {"Bash(rm:*)", "Bash(npm test)"} <= {rule.text for rule in loaded.rules}
    assert [problem.path for problem in loaded.problems] == [local]


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,
        "{" * 100_000,
        '{"a":' * 100_000,
        '{"permissions": {"deny": ' + "[" * 65 + "]" * 65 + "}}",
        '{"permissions": {"allow": ' + "[" * 10_000 + "]" * 10_000 + "}}",
    ],
    ids=["arrays", "objects", "keys", "just-too-deep", "balanced"],
)
def test_deep_nesting_is_a_broken_file_not_a_crash(project: Path, text: str) -> None:
    path = write(layers(project)[Layer.PROJECT], text)
    loaded = load_permission_settings(project, trust_project=True)
    (problem,) = loaded.problems
    assert (problem.path, problem.line) == (path, 1)
    assert problem.message.startswith(f"nested more than {MAX_DEPTH} levels deep; ")
    assert denied_tools(loaded) == REFUSED


def test_nesting_is_counted_outside_strings_only(project: Path) -> None:
    brackets = "[" * 500 + '\\"' + "{" * 500
    write(layers(project)[Layer.PROJECT], json.dumps({"note": brackets, "permissions": {"deny": ["Bash(rm:*)"]}}))
    loaded = load_permission_settings(project, trust_project=True)
    assert (loaded.problems, [rule.text for rule in loaded.rules]) == ([], ["Bash(rm:*)"])


def test_nesting_up_to_the_limit_is_read(project: Path) -> None:
    deep = "[" * (MAX_DEPTH - 2) + "]" * (MAX_DEPTH - 2)
    write(layers(project)[Layer.PROJECT], '{"other": ' + deep + ', "permissions": {"deny": ["Bash(rm:*)"]}}')
    assert [rule.text for rule in load_permission_settings(project, trust_project=True).rules] == ["Bash(rm:*)"]


def test_a_deeply_nested_entry_in_a_deny_list_is_a_broken_file(project: Path) -> None:
    nested = "[" * 60 + "1" + "]" * 60
    write(layers(project)[Layer.PROJECT], '{"permissions": {"deny": [' + nested + '], "defaultMode": ' + nested + "}}")
    loaded = load_permission_settings(project, trust_project=True)
    (problem,) = loaded.problems
    assert "an entry of deny is a list, not a rule" in problem.message
    assert denied_tools(loaded) == REFUSED


def test_a_settings_file_that_is_a_directory(project: Path) -> None:
    path = layers(project)[Layer.PROJECT]
    path.mkdir(parents=True)
    loaded = load_permission_settings(project, trust_project=True)
    (problem,) = loaded.problems
    assert (problem.path, problem.line) == (path, None)
    assert problem.message.startswith("is a directory, not a settings file; ")
    assert denied_tools(loaded) == REFUSED


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null", "/dev/tty"])
def test_a_link_to_a_device_is_refused_without_reading_it(project: Path, device: str) -> None:
    path = layers(project)[Layer.LOCAL]
    path.parent.mkdir(parents=True)
    path.symlink_to(device)
    loaded = load_permission_settings(project, trust_project=True)
    (problem,) = loaded.problems
    assert problem.path == path
    assert problem.message.split(";")[0] in {"is not a regular file", "cannot be read (No such device or address)"}
    assert denied_tools(loaded) == REFUSED


@pytest.mark.parametrize("layer", [Layer.PROJECT, Layer.LOCAL])
def test_a_fifo_does_not_block(project: Path, layer: Layer) -> None:
    path = layers(project)[layer]
    path.parent.mkdir(parents=True)
    os.mkfifo(path)  # nobody writes it: a blocking open would hang forever
    (problem,) = load_permission_settings(project, trust_project=True).problems
    assert problem.message.startswith("is not a regular file; ")
    if layer is Layer.LOCAL:  # "always" does not hang on it either, nor replace it
        with pytest.raises(ValueError, match="is not a regular file; not changed"):
            add_allow_rules(project, ["Bash(ls)"])
        assert stat.S_ISFIFO(path.lstat().st_mode)


def test_a_dangling_link_is_no_file(project: Path) -> None:
    path = layers(project)[Layer.PROJECT]
    path.parent.mkdir(parents=True)
    path.symlink_to(project / "nowhere.json")
    assert load_permission_settings(project, trust_project=True) == PermissionSettings()


def test_a_link_loop_is_a_broken_file(project: Path) -> None:
    path = layers(project)[Layer.PROJECT]
    path.parent.mkdir(parents=True)
    path.symlink_to(path)
    (problem,) = load_permission_settings(project, trust_project=True).problems
    assert problem.message.startswith("cannot be read (")


def test_a_huge_file_is_broken_and_not_read_to_the_end(project: Path) -> None:
    padded = {"permissions": {"deny": ["Bash(rm:*)"]}, "x": "a" * MAX_BYTES}
    path = write(layers(project)[Layer.PROJECT], json.dumps(padded))
    loaded = load_permission_settings(project, trust_project=True)
    (problem,) = loaded.problems
    assert (problem.path, problem.message.split(";")[0]) == (path, "is larger than 1 MiB")
    assert denied_tools(loaded) == REFUSED


def test_text_that_is_not_utf_8_is_broken_with_its_line(project: Path) -> None:
    path = layers(project)[Layer.PROJECT]
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"permissions": {\n  "deny": [\n    "Read(caf\xe9)"\n  ]\n}}')
    (problem,) = load_permission_settings(project, trust_project=True).problems
    assert problem.line == 3
    assert problem.message.startswith("is not UTF-8 text")


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file_is_broken(project: Path) -> None:
    path = write(layers(project)[Layer.USER], GOOD)
    path.chmod(0)
    (problem,) = load_permission_settings(project, trust_project=True).problems
    assert problem.message.startswith("cannot be read (Permission denied)")


@pytest.mark.parametrize(
    ("permissions", "what"),
    [
        ({"deny": ["Bаsh(rm:*)"]}, "a tool name is ASCII"),  # a Cyrillic "а"
        ({"deny": ["Bash(rm:*"]}, "opens a parenthesis it does not close"),
        ({"deny": [42]}, "an entry of deny is a number, not a rule"),
        ({"deny": [None]}, "an entry of deny is null, not a rule"),
        ({"deny": [{"rule": "Bash"}]}, "an entry of deny is an object, not a rule"),
        ({"deny": "Bash(rm:*)"}, '"deny" must be a list of rules'),
        ({"ask": ["Bash(git push:*"]}, "opens a parenthesis"),
        ({"ask": {"Bash": True}}, '"ask" must be a list of rules'),
    ],
)
def test_a_deny_or_ask_that_cannot_be_read_makes_the_file_broken(project: Path, permissions: dict, what: str) -> None:
    write(layers(project)[Layer.PROJECT], {"permissions": {"allow": ["Bash(ls)"], **permissions}})
    loaded = load_permission_settings(project, trust_project=True)
    (problem,) = loaded.problems
    assert what in problem.message
    assert "cannot be read could forbid anything" in problem.message
    assert denied_tools(loaded) == REFUSED
    assert "Bash(ls)" not in {rule.text for rule in loaded.rules}  # a broken file grants nothing


@pytest.mark.parametrize(
    ("text", "line", "what"),
    [
        ('{"permissions": {\n  "deny": ["Bash(rm:*)"],\n  "deny": []\n}}', 3, '"deny" is written twice'),
        ('{"permissions": {"ask": ["Bash"]},\n "permissions": {}}', 2, '"permissions" is written twice'),
        ('{"permissions": {\n  "Deny": ["Bash(rm:*)"]\n}}', 2, '"Deny" is not "deny"'),
        ('{"permissions": {"ASK ": ["Bash"]}}', 1, '"ASK " is not "ask"'),
        ('{\n"Permissions": {"deny": ["Bash(rm:*)"]}}', 2, '"Permissions" is not "permissions"'),
    ],
)
def test_a_deny_that_json_would_drop_unseen_makes_the_file_broken(
    project: Path, text: str, line: int, what: str
) -> None:
    write(layers(project)[Layer.PROJECT], text)
    loaded = load_permission_settings(project, trust_project=True)
    (problem,) = loaded.problems
    assert problem.line == line
    assert what in problem.message
    assert denied_tools(loaded) == REFUSED


def test_twice_written_grants_and_other_keys_are_left_to_json(project: Path) -> None:
    write(
        layers(project)[Layer.PROJECT],
        '{"permissions": {"allow": ["Bash"], "allow": [], "Allow": ["Read"]}, "x": 1, "x": 2}',
    )
    loaded = load_permission_settings(project, trust_project=True)
    assert loaded.rules == []
    (problem,) = loaded.problems
    assert problem.message == '"Allow" is not "allow"; skipped'


@pytest.mark.parametrize("text", ["[1, 2]", '"permissions"', "null", '{"permissions": []}', '{"permissions": "x"}'])
def test_a_file_of_the_wrong_shape_is_broken(project: Path, text: str) -> None:
    write(layers(project)[Layer.PROJECT], text)
    assert denied_tools(load_permission_settings(project, trust_project=True)) == REFUSED


@pytest.mark.parametrize("text", ["", "  \n", "{}", '{"model": "x"}', '{"permissions": {}}'])
def test_a_file_with_no_rules_is_fine(project: Path, text: str) -> None:
    write(layers(project)[Layer.PROJECT], text)
    loaded = load_permission_settings(project, trust_project=True)
    assert (loaded.rules, loaded.problems, loaded.default_mode, loaded.grants) == ([], [], None, ProjectGrants())


def test_other_json_errors_are_broken_files_too(project: Path) -> None:
    write(layers(project)[Layer.PROJECT], '{"n": ' + "9" * 5000 + "}")  # Python refuses over 4300 digits
    (problem,) = load_permission_settings(project, trust_project=True).problems
    assert problem.message.startswith("not valid JSON (")


def test_a_problem_never_carries_an_escape_sequence_to_the_terminal(project: Path) -> None:
    write(layers(project)[Layer.PROJECT], {"permissions": {"allow": ["\x1b]52;c;aGk=\x07(x)", "Bash(\x1b[2Jx)"]}})
    loaded = load_permission_settings(project, trust_project=True)
    notices = repository_grants(loaded)
    shown = [str(problem) for problem in [*loaded.problems, *notices]]
    assert shown
    assert all("\x1b" not in line and "\x07" not in line for line in shown)
    assert any("\\x1b]52" in line for line in shown)


def test_always_reads_a_local_file_with_a_bom(project: Path) -> None:
    local = layers(project)[Layer.LOCAL]
    local.parent.mkdir(parents=True)
    local.write_bytes(b'\xef\xbb\xbf{"permissions": {"allow": ["Bash(ls)"]}}')
    add_allow_rules(project, ["Bash(pwd)"])
    assert json.loads(local.read_text())["permissions"]["allow"] == ["Bash(ls)", "Bash(pwd)"]


# --- A repository cannot switch off its own guard (ADR-0042) --------------------------------------


@pytest.mark.parametrize("layer", [Layer.PROJECT, Layer.LOCAL])
@pytest.mark.parametrize("spelling", ["bypassPermissions", "bypass", " BYPASS "])
def test_bypass_from_the_project_or_local_file_is_ignored_and_reported(
    project: Path, layer: Layer, spelling: str
) -> None:
    path = write(layers(project)[layer], f'{{"permissions": {{\n  "defaultMode": {json.dumps(spelling)}\n}}}}')
    loaded = load_permission_settings(project, trust_project=True)
    assert (loaded.default_mode, loaded.mode_source) == (None, None)
    (problem,) = loaded.problems
    assert (problem.path, problem.line, problem.level) == (path, 2, "warning")
    assert "is ignored: bypass is chosen only with --permission-mode bypass or in the user's settings" in (
        problem.message
    )
    assert PermissionGate.from_settings(project, trust_project=True).mode is Mode.DEFAULT


def test_a_lower_layers_mode_stays_when_a_later_bypass_is_ignored(project: Path) -> None:
    paths = layers(project)
    write(paths[Layer.USER], {"permissions": {"defaultMode": "plan"}})
    write(paths[Layer.PROJECT], {"permissions": {"defaultMode": "bypassPermissions"}})
    loaded = load_permission_settings(project, trust_project=True)
    assert loaded.default_mode is Mode.PLAN
    assert loaded.mode_source is not None
    assert loaded.mode_source.layer is Layer.USER


def test_bypass_from_the_user_file_is_honoured(project: Path) -> None:
    write(layers(project)[Layer.USER], {"permissions": {"defaultMode": "bypassPermissions"}})
    loaded = load_permission_settings(project, trust_project=True)
    assert (loaded.default_mode, loaded.problems) == (Mode.BYPASS, [])


def test_started_in_the_home_directory_the_file_is_the_users(tmp_path: Path) -> None:
    home = tmp_path / "home"
    write(home / ".decode" / "settings.json", {"permissions": {"defaultMode": "bypass", "allow": ["Bash(ls)"]}})
    loaded = load_permission_settings(home, home)
    assert loaded.default_mode is Mode.BYPASS
    assert [rule.source.layer for rule in loaded.rules if rule.source] == [Layer.USER]
    assert repository_grants(loaded) == []


def test_what_the_project_file_allows_is_one_notice(project: Path) -> None:
    paths = layers(project)
    text = (
        '{"permissions": {\n  "defaultMode": "acceptEdits",\n  "allow": [\n    "Bash(npm test)",\n'
        '    "Edit(docs/**)"\n  ],\n  "deny": ["Bash(rm:*)"]\n}}'
    )
    path = write(paths[Layer.PROJECT], text)
    write(paths[Layer.USER], {"permissions": {"allow": ["Bash(git status)"]}})
    add_allow_rules(project, ["Bash(ls)"])  # the user's own "always" answer
    gate = PermissionGate.from_settings(project, trust_project=True)
    assert gate.mode is Mode.ACCEPT_EDITS  # Claude Code users expect the team's settings to work
    assert gate.problems == []
    (notice,) = repository_grants(gate.settings)
    assert (notice.path, notice.line, notice.level) == (path, 4, "notice")
    assert notice.message == (
        "this repository's settings (trusted) let these run without asking: Bash(npm test), Edit(docs/**), "
        "defaultMode accept-edits"
    )


def test_the_notice_stays_one_line_for_many_rules(project: Path) -> None:
    allow = [f"Bash(tool{i})" for i in range(40)]
    write(layers(project)[Layer.PROJECT], {"permissions": {"allow": allow}})
    loaded = load_permission_settings(project, trust_project=True)
    (notice,) = repository_grants(loaded)
    assert "\n" not in str(notice)
    assert notice.message.endswith("Bash(tool4), 35 more (`decode permissions` lists them)")


@pytest.mark.parametrize("mode", ["plan", "default"])
def test_a_project_mode_that_grants_nothing_is_not_reported(project: Path, mode: str) -> None:
    write(layers(project)[Layer.PROJECT], {"permissions": {"defaultMode": mode, "ask": ["Bash"]}})
    loaded = load_permission_settings(project, trust_project=True)
    assert loaded.default_mode is Mode.parse(mode)
    assert repository_grants(loaded) == []


def test_a_good_copy_brings_its_mode_under_the_same_rules(project: Path) -> None:
    paths = layers(project)
    project_file = write(paths[Layer.PROJECT], {"permissions": {"defaultMode": "acceptEdits"}})
    local_file = write(paths[Layer.LOCAL], {"permissions": {"defaultMode": "bypass"}})
    load_permission_settings(project, trust_project=True)
    write(project_file, "{")
    write(local_file, "{")
    loaded = load_permission_settings(project, trust_project=True)
    assert loaded.default_mode is Mode.ACCEPT_EDITS
    assert loaded.mode_source == RuleSource(Layer.PROJECT, copy_of(project_file), 3)
    ignored = [problem for problem in loaded.problems if "is ignored" in problem.message]
    assert [problem.path for problem in ignored] == [copy_of(local_file)]  # bypass stays ignored
