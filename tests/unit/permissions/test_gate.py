"""The Permission Gate: the bypass corpus, precedence, modes, traits, and the rules "always" would save."""

import inspect
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from decode.entities.tools import UNDECLARED, ToolKind, ToolSpec, ToolTraits
from decode.permissions.gate import PLAN_GUIDANCE, PermissionGate
from decode.permissions.rules import parse_rule
from decode.permissions.types import Decision, Layer, Mode
from decode.skills.tool import SKILL_TOOL
from decode.tools.bash import BASH
from decode.tools.catalog import default_tools
from decode.tools.edit import EDIT
from decode.tools.glob import GLOB
from decode.tools.grep import GREP
from decode.tools.read import READ
from decode.tools.write import WRITE

CORPUS: dict[str, Any] = tomllib.loads(Path(__file__).with_name("bypass_corpus.toml").read_text(encoding="utf-8"))
CATALOG: dict[str, ToolTraits] = {spec.name: spec.traits for spec in default_tools()}
# The traits a web-fetch tool declares (decode has none yet; the rule language has WebFetch).
WEB_FETCH = ToolTraits(ToolKind.OTHER, rules=("WebFetch",), url="url")
EVERY_TOOL: list[ToolSpec] = [*default_tools(), SKILL_TOOL]


def corpus_traits(tool: str) -> ToolTraits:
    """The traits the tool a corpus case calls declares, as a session would see them.

    decode's tools declare theirs in the catalog; an MCP tool answers to its own name; any other
    name (`BASH`, `Bash`, `bаsh` with a Cyrillic "а", `Read`…) is a tool that declared nothing.
    """
    if tool in CATALOG:
        return CATALOG[tool]
    if tool == "web_fetch":
        return WEB_FETCH
    if tool.lower().startswith("mcp__"):
        return ToolTraits(ToolKind.OTHER, rules=(tool,))
    return UNDECLARED


def argument_key(traits: ToolTraits) -> str:
    """The argument of the tool a corpus case's `arg` fills: the one rules talk about."""
    return traits.command or traits.url or traits.pattern or traits.path or "path"


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
async def test_bypass_corpus(case: dict, corpus_places: dict[str, Path]) -> None:
    gate = PermissionGate.from_settings(corpus_places["workspace"], mode=Mode.parse(case.get("mode", "default")))
    assert gate.problems == []
    traits = corpus_traits(case["tool"])
    argument = fill(case["arg"], corpus_places)
    args = {argument_key(traits): argument} if argument else {}

    verdict = await gate.check(case["tool"], args, traits)

    assert verdict.decision == Decision(case["expect"]), verdict.reason


def test_the_corpus_is_large_enough_and_covers_every_decision() -> None:
    cases = CORPUS["case"]
    assert len(cases) >= 60
    assert {case["expect"] for case in cases} == {"allow", "ask", "deny"}


def gate_with(tmp_path: Path, *rules: str, mode: Mode = Mode.DEFAULT) -> PermissionGate:
    """A gate with rules written `deny Bash(rm:*)`, for tests that need no settings files."""
    parsed = [parse_rule(text, Decision(action)) for action, text in (rule.split(" ", 1) for rule in rules)]
    return PermissionGate(parsed, mode, workspace=tmp_path)


def bash(command: str) -> dict[str, str]:
    return {"command": command}


async def test_a_deny_wins_over_an_allow_of_the_same_command(tmp_path: Path) -> None:
    gate = gate_with(tmp_path, "allow Bash(git push:*)", "deny Bash(git push --force:*)")
    assert (await gate.check("bash", bash("git push origin"), BASH.traits)).decision is Decision.ALLOW
    assert (await gate.check("bash", bash("git push --force origin"), BASH.traits)).decision is Decision.DENY


async def test_an_ask_rule_wins_over_an_allow(tmp_path: Path) -> None:
    gate = gate_with(tmp_path, "allow Bash", "ask Bash(git push:*)")
    verdict = await gate.check("bash", bash("git push"), BASH.traits)
    assert verdict.decision is Decision.ASK
    assert verdict.rule is not None
    assert verdict.rule.text == "Bash(git push:*)"


async def test_the_verdict_names_the_rule_and_its_file(project: Path) -> None:
    settings = write_settings(project / ".decode" / "settings.json", {"permissions": {"deny": ["Bash(rm:*)"]}})
    verdict = await PermissionGate.from_settings(project).check("bash", bash("ls && rm -rf build"), BASH.traits)
    assert verdict.decision is Decision.DENY
    assert verdict.source is not None
    assert (verdict.source.path, verdict.source.layer) == (settings, Layer.PROJECT)
    assert verdict.to_json()["rule"] == "Bash(rm:*)"


async def test_a_word_known_only_at_run_time_that_might_be_denied_asks(tmp_path: Path) -> None:
    gate = gate_with(tmp_path, "allow Bash(rm:*)", "deny Bash(rm -rf /)")
    verdict = await gate.check("bash", bash("rm -rf $TARGET"), BASH.traits)
    assert verdict.decision is Decision.ASK
    assert "might match" in verdict.reason


async def test_plan_mode_refuses_changes_with_guidance(tmp_path: Path) -> None:
    verdict = await gate_with(tmp_path, "allow Edit", mode=Mode.PLAN).check("write", {"path": "a.py"}, WRITE.traits)
    assert verdict.decision is Decision.DENY
    assert verdict.reason == PLAN_GUIDANCE


async def test_a_tool_without_a_path_or_command_is_judged_by_the_kind_it_declares(tmp_path: Path) -> None:
    gate = gate_with(tmp_path)
    assert (await gate.check("todo_read", {}, ToolTraits(ToolKind.READ_ONLY))).decision is Decision.ALLOW
    assert (await gate.check("todo_write", {}, ToolTraits(ToolKind.OTHER))).decision is Decision.ASK


@pytest.mark.parametrize("mode", [Mode.DEFAULT, Mode.PLAN])
async def test_a_side_effect_free_tool_runs_in_default_and_plan_mode(tmp_path: Path, mode: Mode) -> None:
    assert SKILL_TOOL.traits.kind is ToolKind.SIDE_EFFECT_FREE
    verdict = await gate_with(tmp_path, mode=mode).check("skill", {"name": "review"}, SKILL_TOOL.traits)
    assert verdict.decision is Decision.ALLOW, verdict.reason


async def test_a_tool_that_declares_no_traits_asks_and_no_rule_can_allow_it(tmp_path: Path) -> None:
    verdict = await gate_with(tmp_path).check("mystery", {"path": "a.py"}, UNDECLARED)
    assert verdict.decision is Decision.ASK
    assert "declares no traits" in verdict.reason
    # Not even a rule of the same name, nor the default traits of `check`:
    assert (await gate_with(tmp_path, "allow mystery").check("mystery", {})).decision is Decision.ASK


PATH_TOOLS = [spec for spec in EVERY_TOOL if spec.traits.path is not None]


def test_the_file_tools_declare_their_path() -> None:
    assert {"read", "glob", "grep", "edit", "write"} <= {spec.name for spec in PATH_TOOLS}


@pytest.mark.parametrize("spec", PATH_TOOLS, ids=lambda spec: spec.name)
async def test_every_tool_that_takes_a_path_obeys_a_deny_of_that_path(project: Path, spec: ToolSpec) -> None:
    (project / "secret.txt").write_text("x\n", encoding="utf-8")
    rule = {ToolKind.READ_ONLY: "Read(secret.txt)", ToolKind.FILE_EDIT: "Edit(secret.txt)"}[spec.traits.kind]
    assert spec.traits.path is not None
    gate = gate_with(project, f"deny {rule}", mode=Mode.BYPASS)  # even the mode that runs everything
    verdict = await gate.check(spec.name, {spec.traits.path: "secret.txt"}, spec.traits)
    assert verdict.decision is Decision.DENY, verdict.reason
    assert verdict.rule is not None
    assert verdict.rule.text == rule


def _path_like(name: str) -> bool:
    return name in {"path", "file_path"} or name.endswith("_path")


@pytest.mark.parametrize("spec", EVERY_TOOL, ids=lambda spec: spec.name)
def test_every_path_or_url_parameter_is_declared_in_the_tools_traits(spec: ToolSpec) -> None:
    """A tool that takes a path (or URL) the gate does not know of could read or write anything."""
    for name in inspect.signature(spec.function).parameters:
        if _path_like(name):
            assert spec.traits.path == name, f"{spec.name}({name}) is not its traits' path"
        if name == "url":
            assert spec.traits.url == name, f"{spec.name}({name}) is not its traits' url"


async def test_the_narrowest_rule_for_a_compound_command_names_each_part(tmp_path: Path) -> None:
    rules = await gate_with(tmp_path).narrowest_rules("bash", bash("git log -1 && echo 'a b' > notes.txt"), BASH.traits)
    assert rules == ["Bash(git log -1)", "Bash(echo 'a b')", "Write(/notes.txt)"]


async def test_a_saved_narrowest_rule_allows_exactly_that_request(tmp_path: Path) -> None:
    command = bash("npm run build --if-present")
    gate = gate_with(tmp_path)
    saved = await gate.narrowest_rules("bash", command, BASH.traits)
    gate.add_rules(parse_rule(rule, Decision.ALLOW) for rule in saved)
    assert (await gate.check("bash", command, BASH.traits)).decision is Decision.ALLOW
    assert (await gate.check("bash", bash("npm run build --if-present && ls"), BASH.traits)).decision is Decision.ASK


async def test_a_file_rule_is_anchored_and_escaped(tmp_path: Path) -> None:
    gate = gate_with(tmp_path)
    assert await gate.narrowest_rules("edit", {"path": "src/../a[1].py"}, EDIT.traits) == ["Edit(/a\\[1\\].py)"]
    gate.add_rules([parse_rule("Edit(/a\\[1\\].py)", Decision.ALLOW)])
    assert (await gate.check("edit", {"path": "a[1].py"}, EDIT.traits)).decision is Decision.ALLOW
    assert (await gate.check("edit", {"path": "sub/a[1].py"}, EDIT.traits)).decision is Decision.ASK


async def test_nothing_is_saved_for_a_script_with_a_hazard(tmp_path: Path) -> None:
    gate = gate_with(tmp_path)
    mcp = ToolTraits(ToolKind.OTHER, rules=("mcp__github__get_issue",))
    assert await gate.narrowest_rules("bash", bash("echo $(date)"), BASH.traits) == []
    assert await gate.narrowest_rules("web_fetch", {"url": "https://x.org/a"}, WEB_FETCH) == ["WebFetch(domain:x.org)"]
    assert await gate.narrowest_rules("mcp__github__get_issue", {}, mcp) == ["mcp__github__get_issue"]
    assert await gate.narrowest_rules("mystery", {}, UNDECLARED) == []


def test_the_argument_each_tool_is_judged_by() -> None:
    assert BASH.traits.argument({"command": "ls"}) == "ls"
    assert READ.traits.argument({"path": "a.py"}) == "a.py"
    assert GLOB.traits.argument({"pattern": "../../**/*.pem"}) == "../.."
    assert GLOB.traits.argument({"pattern": "*.py", "path": "src"}) == "src"
    assert GLOB.traits.argument({"pattern": "/etc/**"}) == "/etc"
    assert GREP.traits.argument({"pattern": "x"}) == "."
    assert READ.traits.argument({"path": 3}) == "."
    assert BASH.traits.argument({"command": 3}) is None
