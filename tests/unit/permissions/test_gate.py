"""The Permission Gate: the bypass corpus, precedence, modes, traits, and the rules "always" would save."""

import inspect
import json
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any

import pytest

from decode.entities.tools import UNDECLARED, ToolKind, ToolSpec, ToolTraits
from decode.permissions.gate import PLAN_GUIDANCE, PermissionGate
from decode.permissions.rules import parse_rule
from decode.permissions.shell import Glob
from decode.permissions.types import Decision, Layer, Mode, Rule, Verdict
from decode.skills.tool import SKILL_TOOL
from decode.tools.bash import BASH
from decode.tools.catalog import default_tools
from decode.tools.edit import EDIT
from decode.tools.glob import GLOB
from decode.tools.grep import GREP
from decode.tools.read import READ
from decode.tools.write import WRITE
from tests.unit.permissions.conftest import gate_with

CORPUS: dict[str, Any] = tomllib.loads(Path(__file__).with_name("bypass_corpus.toml").read_text(encoding="utf-8"))
CATALOG: dict[str, ToolTraits] = {spec.name: spec.traits for spec in default_tools()}
WEB_FETCH = CATALOG["web_fetch"]  # the traits web_fetch declares: it answers to WebFetch rules, by its URL
EVERY_TOOL: list[ToolSpec] = [*default_tools(), SKILL_TOOL]
SECRET_FILES: list[str] = CORPUS["settings"]["secret_files"]  # what DECODE_SECRET_FILES would add


def corpus_traits(tool: str) -> ToolTraits:
    """The traits the tool a corpus case calls declares, as a session would see them.

    decode's tools declare theirs in the catalog; an MCP tool answers to its own name; any other
    name (`BASH`, `Bash`, `bаsh` with a Cyrillic "а", `Read`…) is a tool that declared nothing.
    """
    if tool in CATALOG:
        return CATALOG[tool]
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
    """Replace the corpus's placeholders: {workspace}, {home}, {outside} with real folders,
    {deep:N} with N nested command substitutions and {parens:N} with N nested subshells."""
    for name, place in places.items():
        text = text.replace("{" + name + "}", str(place))
    text = re.sub(r"\{deep:(\d+)\}", lambda m: "$(echo " * int(m.group(1)) + "x" + ")" * int(m.group(1)), text)
    return re.sub(r"\{parens:(\d+)\}", lambda m: "(" * int(m.group(1)) + "ls" + ")" * int(m.group(1)), text)


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


async def judge_corpus(places: dict[str, Path]) -> list[tuple[tuple, Verdict]]:
    """Every corpus case that uses the corpus's own settings, judged by a gate of its mode: (call, verdict)."""
    judged = []
    for case in CORPUS["case"]:
        if "user" in case or "rules" in case:
            continue
        mode, trusted = Mode.parse(case.get("mode", "default")), case.get("project_trusted", True)
        gate = PermissionGate.from_settings(
            places["workspace"], mode=mode, secret_files=SECRET_FILES, trust_project=trusted
        )
        gate.network_isolated = case.get("sandbox", False)
        traits = corpus_traits(case["tool"])
        argument = fill(case["arg"], places)
        args = {argument_key(traits): argument} if argument else {}
        if "network" in case:
            args["network"] = case["network"]
        call = (case["tool"], args, traits)
        judged.append((call, await gate.check(*call)))
    return judged


def _case_id(case: dict) -> str:
    rules = ":no-rules" if case.get("rules") == "none" else ""
    rules += {False: ":untrusted", True: ":trusted", None: ""}[case.get("project_trusted")]
    rules += ":user-" + "+".join(case["user"]["permissions"]) if "user" in case else ""
    return f"{case['tool']}:{case['arg']}:{case.get('mode', 'default')}{rules}".replace("\n", "\\n")


@pytest.mark.parametrize("case", CORPUS["case"], ids=_case_id)
async def test_bypass_corpus(case: dict, corpus_places: dict[str, Path]) -> None:
    mode = Mode.parse(case.get("mode", "default"))
    if case.get("rules") == "none":  # the built-in read-only list alone: no settings file at all
        (corpus_places["home"] / ".decode" / "settings.json").unlink()
        (corpus_places["workspace"] / ".decode" / "settings.json").unlink()
    if "user" in case:  # the case's own user layer, in place of the corpus's
        write_settings(corpus_places["home"] / ".decode" / "settings.json", case["user"])
    # The corpus's project is trusted (`decode permissions trust`) unless a case says it is not.
    trusted = case.get("project_trusted", True)
    gate = PermissionGate.from_settings(
        corpus_places["workspace"], mode=mode, secret_files=SECRET_FILES, trust_project=trusted
    )
    assert gate.problems == []
    gate.network_isolated = case.get("sandbox", False)  # lesson 17: a sandbox without network
    traits = corpus_traits(case["tool"])
    argument = fill(case["arg"], corpus_places)
    args = {argument_key(traits): argument} if argument else {}
    if "network" in case:
        args["network"] = case["network"]

    verdict = await gate.check(case["tool"], args, traits)

    assert verdict.decision == Decision(case["expect"]), verdict.reason


# The classes of bypass the corpus covers, with the fewest cases each must have.
CLASSES = {
    "chaining": 10,
    "shell-strings": 10,
    "substitution": 5,
    "wrappers": 10,
    "quoting": 10,
    "redirections": 10,
    "paths": 10,
    "modes": 5,
    "tool-names": 10,
    "no-command": 20,
    "surroundings": 25,
    "escaping-redirections": 15,
    "spelling": 60,
    "deep-input": 5,
    "secrets": 25,
    "still-allowed": 15,
    "read-only": 120,
    "network": 15,
    "project-trust": 5,
}


def test_the_corpus_is_large_enough_and_covers_every_decision_and_class() -> None:
    cases = CORPUS["case"]
    assert len(cases) >= 300
    assert {case["expect"] for case in cases} == {"allow", "ask", "deny"}
    counts = {name: sum(case["class"] == name for case in cases) for name in CLASSES}
    assert {case["class"] for case in cases} == set(CLASSES)
    assert all(counts[name] >= least for name, least in CLASSES.items()), counts
    keys = {
        (
            case["tool"],
            case["arg"],
            case.get("mode", "default"),
            case.get("rules"),
            case.get("network"),
            case.get("sandbox"),
            case.get("project_trusted"),
            str(case.get("user")),
        )
        for case in cases
    }
    assert len(keys) == len(cases)


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
    # Not even a rule of the same name (which `parse_rule` refuses: no tool answers to it), nor the
    # default traits of `check`:
    named = PermissionGate([Rule(Decision.ALLOW, "mystery", None)], workspace=tmp_path)
    assert (await named.check("mystery", {})).decision is Decision.ASK


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


def test_the_argument_each_tool_is_judged_by() -> None:
    assert BASH.traits.argument({"command": "ls"}) == "ls"
    assert READ.traits.argument({"path": "a.py"}) == "a.py"
    assert GLOB.traits.argument({"pattern": "../../**/*.pem"}) == "../.."
    assert GLOB.traits.argument({"pattern": "*.py", "path": "src"}) == "src"
    assert GLOB.traits.argument({"pattern": "/etc/**"}) == "/etc"
    assert GREP.traits.argument({"pattern": "x"}) == "."
    assert READ.traits.argument({"path": 3}) == "."
    assert BASH.traits.argument({"command": 3}) is None


# --- files that hold secrets -------------------------------------------------------------------


@pytest.fixture
def secrets_project(project: Path) -> Path:
    for name in (".env", ".env.local", "config/.env.test", "creds.json", "src/app.py"):
        (project / name).parent.mkdir(parents=True, exist_ok=True)
        (project / name).write_text("KEY=1\n", encoding="utf-8")
    (project / "innocent").symlink_to(project / ".env")
    return project


@pytest.mark.parametrize("mode", list(Mode))
@pytest.mark.parametrize(
    ("spec", "path"),
    [(READ, ".env"), (READ, "config/.env.test"), (READ, "innocent"), (GREP, ".env.local"), (EDIT, ".env")],
    ids=lambda value: value if isinstance(value, str) else value.name,
)
async def test_a_secret_file_asks_in_every_mode_before_a_tool_touches_it(
    secrets_project: Path, mode: Mode, spec: ToolSpec, path: str
) -> None:
    gate = gate_with(secrets_project, mode=mode)
    assert spec.traits.path is not None
    verdict = await gate.check(spec.name, {spec.traits.path: path}, spec.traits)
    expected = Decision.DENY if mode is Mode.PLAN and spec is EDIT else Decision.ASK
    assert verdict.decision is expected, verdict.reason


@pytest.mark.parametrize(
    "command",
    [
        "cat .env",
        "grep KEY .env.local",
        "cat < .env",
        "head -1 innocent",
        "cat ./config/.env.test",
        "cat .e*",
        "cat $HOME/../x/.env",
        'cat "$PWD/.env"',
        "docker run --env-file=.env img",
        "cat {x,.env}",
    ],
)
async def test_a_command_naming_a_secret_file_asks_even_when_its_program_is_allowed(
    secrets_project: Path, command: str
) -> None:
    gate = gate_with(
        secrets_project, "allow Bash(cat:*)", "allow Bash(grep:*)", "allow Bash(head:*)", "allow Bash(docker:*)"
    )
    verdict = await gate.check("bash", bash(command), BASH.traits)
    assert verdict.decision is Decision.ASK, verdict.reason
    assert "holds secrets" in verdict.reason


@pytest.mark.parametrize(
    ("rules", "tool", "argument", "decision"),
    [
        (["allow Read(.env)"], "read", ".env", Decision.ALLOW),
        (["allow Read(/.env)"], "read", ".env", Decision.ALLOW),
        (["allow Read(**/.env*)"], "read", "config/.env.test", Decision.ALLOW),
        (["allow Read(**)"], "read", ".env", Decision.ASK),  # allows everything, names nothing
        (["allow Read"], "read", ".env", Decision.ASK),
        (["allow Bash(cat .env)"], "bash", "cat .env", Decision.ALLOW),
        (["allow Bash(cat:*)", "allow Read(.env)"], "bash", "cat .env", Decision.ALLOW),
        (["allow Bash(cat:*)"], "bash", "cat src/app.py", Decision.ALLOW),
    ],
)
async def test_only_an_allow_rule_that_names_a_secret_file_lets_it_through(
    secrets_project: Path, rules: list[str], tool: str, argument: str, decision: Decision
) -> None:
    traits = CATALOG[tool]
    verdict = await gate_with(secrets_project, *rules).check(tool, {argument_key(traits): argument}, traits)
    assert verdict.decision is decision, verdict.reason


async def test_always_saves_a_rule_that_names_the_secret_file(secrets_project: Path) -> None:
    gate = gate_with(secrets_project)
    saved = await gate.narrowest_rules("read", {"path": ".env"}, READ.traits)
    gate.add_rules(parse_rule(rule, Decision.ALLOW) for rule in saved)
    assert (await gate.check("read", {"path": ".env"}, READ.traits)).decision is Decision.ALLOW
    assert (await gate.check("read", {"path": ".env.local"}, READ.traits)).decision is Decision.ASK


async def test_the_setting_adds_secret_files_and_from_settings_reads_it(
    secrets_project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import decode.config.settings as settings_module
    from decode.config.settings import Settings

    assert (
        await gate_with(secrets_project).check("read", {"path": "creds.json"}, READ.traits)
    ).decision is Decision.ALLOW
    monkeypatch.setattr(settings_module, "settings", Settings(secret_files=["creds.json", "*.pem"]), raising=False)
    gate = PermissionGate.from_settings(secrets_project)
    assert gate.secret_files == (".env", ".env*", "*.env", "creds.json", "*.pem")
    assert (await gate.check("read", {"path": "creds.json"}, READ.traits)).decision is Decision.ASK
    assert (await gate.check("bash", bash("cat certs/x.pem"), BASH.traits)).decision is Decision.ASK
    explicit = PermissionGate.from_settings(secrets_project, secret_files=[])
    assert (await explicit.check("read", {"path": "creds.json"}, READ.traits)).decision is Decision.ALLOW


def test_is_secret_matches_names_anywhere_and_patterns_that_could() -> None:
    gate = PermissionGate(workspace=Path("/w"), home=Path("/h"), secret_files=["*.key", "config/secret.yml"])
    assert [gate.is_secret(path) for path in ("/w/.env", "/elsewhere/.env.prod", "/w/a/b.key", "/w/.ENV")] == [True] * 4
    assert gate.is_secret("/w/config/secret.yml")
    assert gate.is_secret("/w/.envrc")  # direnv's file
    assert gate.is_secret("/w/prod.env")
    assert not any(gate.is_secret(path) for path in ("/w/other/secret.yml", "/w/env", "/w/environment.py"))
    assert [gate.is_secret(Glob(p)) for p in ("/w/.e*", "/w/x.ke?", "/w/*", "/w/*.txt")] == [True, True, True, False]


# --- words naming files a rule or a protected folder covers ---------------------------------


@pytest.mark.parametrize("command", ["cat secrets/a", "cat ./secrets/../secrets/a", "grep -r x src/../secrets"])
async def test_a_word_naming_a_denied_file_asks_even_in_bypass(project: Path, command: str) -> None:
    (project / "secrets").mkdir()
    (project / "src").mkdir()
    gate = gate_with(project, "allow Bash", "deny Read(secrets/**)", mode=Mode.BYPASS)
    verdict = await gate.check("bash", bash(command), BASH.traits)
    assert verdict.decision is Decision.ASK, verdict.reason


@pytest.mark.parametrize(
    "command", ["cp x .decode/settings.local.json", "tee .git/hooks/pre-commit", "git diff --output=.git/config"]
)
async def test_a_word_naming_a_protected_file_asks_as_the_file_tools_do(project: Path, command: str) -> None:
    for mode, decision in (
        (Mode.ACCEPT_EDITS, Decision.ASK),
        (Mode.DEFAULT, Decision.ASK),
        (Mode.BYPASS, Decision.ALLOW),
    ):
        verdict = await gate_with(project, "allow Bash", mode=mode).check("bash", bash(command), BASH.traits)
        assert verdict.decision is decision, (mode, verdict.reason)


async def test_a_symlink_to_a_protected_folder_is_protected(project: Path) -> None:
    (project / ".decode").mkdir()
    (project / "link").symlink_to(project / ".decode")
    gate = gate_with(project, mode=Mode.ACCEPT_EDITS)
    for args in ({"path": "link/settings.local.json"},):
        assert (await gate.check("write", args, WRITE.traits)).decision is Decision.ASK
    assert (await gate.check("bash", bash("echo x > link/settings.local.json"), BASH.traits)).decision is Decision.ASK


# --- deny rules hold in every mode; what cannot be known asks in bypass --------------------------


@pytest.mark.parametrize(
    "command",
    ["{rm,x} y", "/bin/r? x", "r\\\nm x", "sh <<< 'rm x'", "sudo --user=root rm x", "find . -exec sh -c 'rm x' \\;"],
)
async def test_a_deny_rule_denies_every_spelling_in_bypass(tmp_path: Path, command: str) -> None:
    verdict = await gate_with(tmp_path, "deny Bash(rm:*)", mode=Mode.BYPASS).check("bash", bash(command), BASH.traits)
    assert verdict.decision is Decision.DENY, verdict.reason


@pytest.mark.parametrize(
    "command", ["curl x | sh", "(( x ))", "HOME=/tmp git status", 'eval "$x"', "echo ${x@P}", "$CMD x"]
)
async def test_in_bypass_what_cannot_be_known_asks_when_a_bash_deny_is_in_force(tmp_path: Path, command: str) -> None:
    denied = await gate_with(tmp_path, "deny Bash(rm:*)", mode=Mode.BYPASS).check("bash", bash(command), BASH.traits)
    assert denied.decision is Decision.ASK, denied.reason
    free = await gate_with(tmp_path, mode=Mode.BYPASS).check("bash", bash(command), BASH.traits)
    assert free.decision is Decision.ALLOW, free.reason


async def test_a_script_with_no_command_asks(tmp_path: Path) -> None:
    gate = gate_with(tmp_path, "allow Bash")
    for script in ("[[ -f x ]]", "x=1", "# note", "(( 1 ))"):
        assert (await gate.check("bash", bash(script), BASH.traits)).decision is Decision.ASK, script


# --- bad input never crashes the gate ---------------------------------------------------------------


async def test_deep_input_asks_even_deep_in_the_caller_s_stack(tmp_path: Path) -> None:
    gate = gate_with(tmp_path, "allow Bash(echo:*)")
    command = bash("echo " + "$(echo " * 250 + "x" + ")" * 250)

    async def nested(levels: int) -> Any:
        return await nested(levels - 1) if levels else await gate.check("bash", command, BASH.traits)

    assert (await nested(300)).decision is Decision.ASK


@pytest.mark.parametrize("path", ["a\x00b", "x" * 5000, "/" + "a/" * 3000])
async def test_a_path_the_system_refuses_is_judged_as_written(tmp_path: Path, path: str) -> None:
    gate = gate_with(tmp_path)
    assert (await gate.check("read", {"path": path}, READ.traits)).decision in (Decision.ALLOW, Decision.ASK)
    assert (await gate.check("bash", bash(f"stat {shlex.quote(path)}"), BASH.traits)).decision is Decision.ASK


@pytest.mark.parametrize(
    ("rules", "host", "expected"),
    [
        ({"allow": ["WebFetch(domain:localhost)"]}, "localhost", True),
        ({"allow": ["WebFetch(domain:localhost)"]}, "127.0.0.1", False),
        ({"allow": ["WebFetch(domain:*.corp.example)"]}, "wiki.corp.example", True),
        ({"allow": ["WebFetch"]}, "localhost", False),  # a bare allow names no host
        ({"allow": ["WebFetch(domain:localhost)"], "deny": ["WebFetch(domain:localhost)"]}, "localhost", False),
        ({"allow": ["Bash(curl localhost)"]}, "localhost", False),
    ],
)
def test_only_an_allow_rule_naming_the_host_lets_web_fetch_reach_a_private_one(
    tmp_path: Path, rules: dict[str, list[str]], host: str, expected: bool
) -> None:
    parsed = [parse_rule(text, Decision(action)) for action, texts in rules.items() for text in texts]
    gate = PermissionGate(parsed, Mode.BYPASS, workspace=tmp_path, home=tmp_path)
    assert gate.allows_private(host) is expected


def test_an_always_answer_opens_the_host_for_web_fetch_at_once(tmp_path: Path) -> None:
    gate = PermissionGate([], Mode.DEFAULT, workspace=tmp_path, home=tmp_path)
    assert not gate.allows_private("127.0.0.1")
    gate.add_rules([parse_rule("WebFetch(domain:127.0.0.1)", Decision.ALLOW)])  # what "always" saves
    assert gate.allows_private("127.0.0.1")


@pytest.mark.parametrize(
    ("host", "expected"),
    [("evil.example", True), ("sub.evil.example", False), ("docs.python.org", False), ("any.bad.example", True)],
)
def test_web_fetch_asks_the_deny_rules_of_every_redirect_hop(tmp_path: Path, host: str, expected: bool) -> None:
    rules = [parse_rule(t, Decision.DENY) for t in ("WebFetch(domain:evil.example)", "WebFetch(domain:*.bad.example)")]
    gate = PermissionGate(rules, Mode.BYPASS, workspace=tmp_path, home=tmp_path)
    assert gate.denies_host(host) is expected


@pytest.mark.parametrize(
    ("url", "saved"),
    [
        ("https://evil\u3002example/", ["WebFetch(domain:evil.example)"]),  # the host DNS would read
        ("http://my_service:8000/", ["WebFetch(domain:my_service)"]),  # a compose service name
        ("http://[::1]:8000/", []),  # the rule grammar cannot name an IPv6 address
    ],
)
async def test_an_always_answer_for_a_fetch_saves_only_a_rule_that_can_be_read(
    tmp_path: Path, url: str, saved: list[str]
) -> None:
    gate = PermissionGate([], Mode.DEFAULT, workspace=tmp_path, home=tmp_path)
    rules = await gate.narrowest_rules("web_fetch", {"url": url}, WEB_FETCH)
    assert rules == saved
    assert all(parse_rule(rule, Decision.ALLOW) for rule in rules)


# --- an ask rule asks in every mode, bypass included (issue 25) -------------------------------------


@pytest.mark.parametrize("mode", [Mode.DEFAULT, Mode.ACCEPT_EDITS, Mode.BYPASS])
@pytest.mark.parametrize(
    ("rule", "tool", "argument"),
    [
        ("Bash(npm publish:*)", "bash", "npm publish"),
        ("Bash(git push:*)", "bash", "git -C . push origin"),  # through git's global options too
        ("Bash(git push --force:*)", "bash", "git push -f"),  # and options spelled another way
        ("Edit(docs/**)", "edit", "docs/guide.md"),
        ("Read(notes.md)", "read", "notes.md"),
        ("Read(notes.md)", "bash", "cat notes.md"),  # a word naming the file
        ("WebFetch(domain:x.org)", "web_fetch", "https://x.org/a"),
        ("mcp__srv__drop", "mcp__srv__drop", ""),
    ],
)
async def test_an_ask_rule_asks_in_every_mode(tmp_path: Path, rule: str, tool: str, argument: str, mode: Mode) -> None:
    traits = corpus_traits(tool)
    args = {argument_key(traits): argument} if argument else {}
    gate = gate_with(tmp_path, f"ask {rule}", "allow Bash", "allow Edit", "allow Read", mode=mode)
    verdict = await gate.check(tool, args, traits)
    assert verdict.decision is Decision.ASK, verdict.reason
    assert verdict.rule is not None
    assert verdict.rule.text == rule


async def test_plan_mode_refuses_a_change_an_ask_rule_names_and_asks_for_a_read(tmp_path: Path) -> None:
    gate = gate_with(tmp_path, "ask Read(notes.md)", "ask Edit(notes.md)", mode=Mode.PLAN)
    assert (await gate.check("read", {"path": "notes.md"}, READ.traits)).decision is Decision.ASK
    assert (await gate.check("edit", {"path": "notes.md"}, EDIT.traits)).decision is Decision.DENY


async def test_an_added_dir_is_judged_as_the_workspace_is(tmp_path: Path) -> None:
    workspace, other = tmp_path / "ws", tmp_path / "other"
    workspace.mkdir()
    other.mkdir()
    gate = PermissionGate(workspace=workspace)
    outside = await gate.check("read", {"path": str(other / "notes.txt")}, READ.traits)
    assert outside.decision is Decision.ASK
    gate.more_roots = (str(other.resolve()),)
    assert (await gate.check("read", {"path": "../other/notes.txt"}, READ.traits)).decision is Decision.ALLOW
    assert (await gate.check("read", {"path": "../other/.env"}, READ.traits)).decision is Decision.ASK
    assert (await gate.check("write", {"path": "../other/n.txt"}, WRITE.traits)).decision is Decision.ASK
    gate.mode = Mode.ACCEPT_EDITS
    assert (await gate.check("write", {"path": "../other/n.txt"}, WRITE.traits)).decision is Decision.ALLOW
    assert (await gate.check("write", {"path": "../other/.git/config"}, WRITE.traits)).decision is Decision.ASK
    assert (
        await gate.fenced(Mode.DEFAULT).check("read", {"path": "../other/a"}, READ.traits)
    ).decision is Decision.ALLOW
