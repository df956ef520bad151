"""The Permission Gate: the bypass corpus, precedence, modes, and the rules "always" would save."""

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from decode.permissions.gate import PLAN_GUIDANCE, PermissionGate, request_argument
from decode.permissions.rules import parse_rule
from decode.permissions.types import Decision, Layer, Mode

CORPUS: dict[str, Any] = tomllib.loads(Path(__file__).with_name("bypass_corpus.toml").read_text(encoding="utf-8"))
ARGUMENT_KEYS = {"bash": "command", "glob": "pattern", "web_fetch": "url"}


def write_settings(path: Path, content: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(content), encoding="utf-8")
    return path


def fill(text: str, places: dict[str, Path]) -> str:
    """Replace the corpus's placeholders ({workspace}, {home}, {outside}) with real folders."""
    for name, place in places.items():
        text = text.replace("{" + name + "}", str(place))
    return text


@pytest.fixture
def corpus_places(project: Path) -> dict[str, Path]:
    """Build the corpus's world for real: settings files, files, symlinks; return the placeholders."""
    home = Path.home()  # an empty tmp folder, set by the suite's conftest
    places = {"workspace": project, "home": home, "outside": project.parent / "outside"}
    write_settings(home / ".decode" / "settings.json", CORPUS["settings"]["user"])
    write_settings(project / ".decode" / "settings.json", CORPUS["settings"]["project"])
    for name in CORPUS["tree"]["files"]:
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text("x\n", encoding="utf-8")
    for name in CORPUS["tree"]["folders"]:
        Path(fill(name, places)).mkdir(parents=True, exist_ok=True)
    for link, target in CORPUS["tree"]["symlinks"].items():
        (project / link).symlink_to(fill(target, places))
    return places


def _case_id(case: dict) -> str:
    return f"{case['tool']}:{case['arg']}:{case.get('mode', 'default')}".replace("\n", "\\n")


@pytest.mark.parametrize("case", CORPUS["case"], ids=_case_id)
def test_bypass_corpus(case: dict, corpus_places: dict[str, Path]) -> None:
    gate = PermissionGate.from_settings(corpus_places["workspace"], mode=Mode.parse(case.get("mode", "default")))
    assert gate.problems == []
    argument = fill(case["arg"], corpus_places)
    args = {ARGUMENT_KEYS.get(case["tool"], "path"): argument} if argument else {}

    verdict = gate.check(case["tool"], args)

    assert verdict.decision == Decision(case["expect"]), verdict.reason


def test_the_corpus_is_large_enough_and_covers_every_decision() -> None:
    cases = CORPUS["case"]
    assert len(cases) >= 60
    assert {case["expect"] for case in cases} == {"allow", "ask", "deny"}


def gate_with(tmp_path: Path, *rules: str, mode: Mode = Mode.DEFAULT) -> PermissionGate:
    """A gate with rules written `deny Bash(rm:*)`, for tests that need no settings files."""
    parsed = [parse_rule(text, Decision(action)) for action, text in (rule.split(" ", 1) for rule in rules)]
    return PermissionGate(parsed, mode, workspace=tmp_path)


def test_a_deny_wins_over_an_allow_of_the_same_command(tmp_path: Path) -> None:
    gate = gate_with(tmp_path, "allow Bash(git push:*)", "deny Bash(git push --force:*)")
    assert gate.check("bash", {"command": "git push origin"}).decision is Decision.ALLOW
    assert gate.check("bash", {"command": "git push --force origin"}).decision is Decision.DENY


def test_an_ask_rule_wins_over_an_allow(tmp_path: Path) -> None:
    gate = gate_with(tmp_path, "allow Bash", "ask Bash(git push:*)")
    verdict = gate.check("bash", {"command": "git push"})
    assert verdict.decision is Decision.ASK
    assert verdict.rule is not None
    assert verdict.rule.text == "Bash(git push:*)"


def test_the_verdict_names_the_rule_and_its_file(project: Path) -> None:
    settings = write_settings(project / ".decode" / "settings.json", {"permissions": {"deny": ["Bash(rm:*)"]}})
    verdict = PermissionGate.from_settings(project).check("bash", {"command": "ls && rm -rf build"})
    assert verdict.decision is Decision.DENY
    assert verdict.source is not None
    assert (verdict.source.path, verdict.source.layer) == (settings, Layer.PROJECT)
    assert verdict.to_json()["rule"] == "Bash(rm:*)"


def test_a_word_known_only_at_run_time_that_might_be_denied_asks(tmp_path: Path) -> None:
    gate = gate_with(tmp_path, "allow Bash(rm:*)", "deny Bash(rm -rf /)")
    verdict = gate.check("bash", {"command": "rm -rf $TARGET"})
    assert verdict.decision is Decision.ASK
    assert "might match" in verdict.reason


def test_plan_mode_refuses_changes_with_guidance(tmp_path: Path) -> None:
    verdict = gate_with(tmp_path, "allow Edit", mode=Mode.PLAN).check("write", {"path": "a.py"})
    assert verdict.decision is Decision.DENY
    assert verdict.reason == PLAN_GUIDANCE


def test_a_tool_outside_the_table_uses_the_kind_it_declares(tmp_path: Path) -> None:
    gate = gate_with(tmp_path)
    assert gate.check("todo_read", {}, kind="read-only").decision is Decision.ALLOW
    assert gate.check("todo_write", {}, kind="other").decision is Decision.ASK


def test_the_narrowest_rule_for_a_compound_command_names_each_part(tmp_path: Path) -> None:
    rules = gate_with(tmp_path).narrowest_rules("bash", {"command": "git log -1 && echo 'a b' > notes.txt"})
    assert rules == ["Bash(git log -1)", "Bash(echo 'a b')", "Write(/notes.txt)"]


def test_a_saved_narrowest_rule_allows_exactly_that_request(tmp_path: Path) -> None:
    command = {"command": "npm run build --if-present"}
    gate = gate_with(tmp_path)
    gate.add_rules(parse_rule(rule, Decision.ALLOW) for rule in gate.narrowest_rules("bash", command))
    assert gate.check("bash", command).decision is Decision.ALLOW
    assert gate.check("bash", {"command": "npm run build --if-present && ls"}).decision is Decision.ASK


def test_a_file_rule_is_anchored_and_escaped(tmp_path: Path) -> None:
    gate = gate_with(tmp_path)
    assert gate.narrowest_rules("edit", {"path": "src/../a[1].py"}) == ["Edit(/a\\[1\\].py)"]
    gate.add_rules([parse_rule("Edit(/a\\[1\\].py)", Decision.ALLOW)])
    assert gate.check("edit", {"path": "a[1].py"}).decision is Decision.ALLOW
    assert gate.check("edit", {"path": "sub/a[1].py"}).decision is Decision.ASK


def test_nothing_is_saved_for_a_script_with_a_hazard(tmp_path: Path) -> None:
    gate = gate_with(tmp_path)
    assert gate.narrowest_rules("bash", {"command": "echo $(date)"}) == []
    assert gate.narrowest_rules("web_fetch", {"url": "https://x.org/a"}) == ["WebFetch(domain:x.org)"]
    assert gate.narrowest_rules("mcp__github__get_issue", {}) == ["mcp__github__get_issue"]


def test_the_argument_of_each_tool(tmp_path: Path) -> None:
    assert request_argument("bash", {"command": "ls"}) == "ls"
    assert request_argument("read", {"path": "a.py"}) == "a.py"
    assert request_argument("glob", {"pattern": "../../**/*.pem"}) == "../.."
    assert request_argument("glob", {"pattern": "*.py", "path": "src"}) == "src"
    assert request_argument("grep", {"pattern": "x"}) is None
    assert request_argument("read", {"path": 3}) is None
