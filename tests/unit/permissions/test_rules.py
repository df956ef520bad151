"""Reading rules like Claude Code's, and matching them without being fooled by spelling."""

import re
from pathlib import Path

import pytest

from decode.entities.tools import ToolKind, ToolTraits
from decode.permissions.gate import PermissionGate
from decode.permissions.rules import (
    RULE_NAMES,
    ForeignRule,
    RuleError,
    command_matches,
    domain_matches,
    parse_rule,
    tool_matches,
)
from decode.permissions.settings_files import load_permission_settings
from decode.permissions.shell import Glob
from decode.permissions.types import Decision, Mode
from decode.tools.bash import BASH
from decode.tools.catalog import default_tools
from decode.tools.glob import GLOB
from decode.tools.write import WRITE


@pytest.mark.parametrize(
    ("text", "tool", "specifier"),
    [
        ("Bash", "Bash", None),
        ("Bash(git diff:*)", "Bash", "git diff:*"),
        ("bAsH(npm test)", "Bash", "npm test"),
        ("read(src/**)", "Read", "src/**"),
        ("Edit(docs/**)", "Edit", "docs/**"),
        ("WRITE(notes.md)", "Write", "notes.md"),
        ("webfetch(domain:example.com)", "WebFetch", "domain:example.com"),
        ("mcp__github__get_issue", "mcp__github__get_issue", None),
        ("  Bash(echo (hi))  ", "Bash", "echo (hi)"),
    ],
)
def test_rules_are_read_and_normalised_to_canonical_names(text: str, tool: str, specifier: str | None) -> None:
    rule = parse_rule(text, Decision.ALLOW)
    assert (rule.tool, rule.specifier) == (tool, specifier)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("Bаsh(ls)", "ASCII"),  # Cyrillic а
        ("Bash (ls)", "ASCII"),
        ("Bash(ls", "does not close"),
        ("Bash()", "empty parentheses"),
        ("Bash(echo 'unterminated)", "cannot be read"),
        ("WebFetch(example.com)", "domain:HOST"),
        ("WebFetch(domain:exa mple.com)", "domain:HOST"),
        ("mcp__github(create)", "takes no parentheses"),
        ("", "ASCII"),
    ],
)
def test_a_rule_that_cannot_be_read_says_why(text: str, problem: str) -> None:
    with pytest.raises(RuleError, match=problem):
        parse_rule(text, Decision.DENY)


def test_decode_tools_answer_to_the_rule_names_their_traits_declare() -> None:
    assert BASH.traits.rules == ("Bash",)
    assert GLOB.traits.rules == ("Glob", "Read")
    assert WRITE.traits.rules == ("Write", "Edit")
    for spec in default_tools():  # every rule name a tool declares is one a user can write
        assert set(spec.traits.rules) <= set(RULE_NAMES), spec.name


def test_rule_names_are_compared_exactly_once_parsed() -> None:
    rule = parse_rule("bAsH", Decision.DENY)  # the rule's spelling is normalised...
    assert tool_matches(rule, "Bash")
    for lookalike in ("BASH", "bash", "bash ", "bаsh", "Read", ""):  # ...the names tools answer to are not
        assert not tool_matches(rule, lookalike)


async def test_a_tool_answers_only_to_the_rule_names_its_traits_declare(tmp_path: Path) -> None:
    """An MCP tool that calls itself `Bash` is not bash: Bash rules do not govern it, its own do."""
    impostor = ToolTraits(ToolKind.OTHER, rules=("mcp__x__Bash",))
    args = {"command": "rm -rf /"}

    def gate(*rules: str) -> PermissionGate:
        parsed = [parse_rule(text, Decision(action)) for action, text in (rule.split(" ", 1) for rule in rules)]
        return PermissionGate(parsed, workspace=tmp_path)

    assert (await gate("deny Bash").check("Bash", args, impostor)).decision is Decision.ASK
    assert (await gate("allow Bash").check("Bash", args, impostor)).decision is Decision.ASK
    assert (await gate("allow Bash").check("Bash", args, BASH.traits)).decision is Decision.ALLOW
    assert (await gate("deny mcp__x").check("Bash", args, impostor)).decision is Decision.DENY
    assert (await gate("allow mcp__x__Bash").check("Bash", args, impostor)).decision is Decision.ALLOW


def test_mcp_rules_cover_one_tool_or_a_whole_server() -> None:
    server, star, one = (parse_rule(t, Decision.DENY) for t in ("mcp__prod", "mcp__prod__*", "mcp__prod__drop"))
    assert tool_matches(server, "mcp__prod__drop")
    assert tool_matches(star, "mcp__prod__drop")
    assert tool_matches(one, "mcp__prod__drop")
    assert not tool_matches(one, "mcp__prod__create")
    assert not tool_matches(server, "mcp__production__drop")


@pytest.mark.parametrize(
    ("specifier", "words", "expected"),
    [
        ("git diff:*", ("git", "diff"), True),
        ("git diff:*", ("git", "diff", "--stat"), True),
        ("git diff *", ("git", "diff", "--stat"), True),
        ("git diff:*", ("git", "difftool"), False),
        ("npm test", ("npm", "test"), True),
        ("npm test", ("npm", "test", "--watch"), False),
        ("echo 'a b'", ("echo", "a b"), True),
        ("*", ("anything",), True),
        ("rm:*", ("rm", None), True),
        ("rm -rf /", ("rm", "-rf", None), None),
        ("git push --force:*", ("git", None), None),
        ("git push --force:*", ("cat", None), False),
        ("npm test", ("npm", "test", None), None),
    ],
)
def test_bash_specifiers_compare_whole_words(specifier: str, words: tuple, expected: bool | None) -> None:
    assert command_matches(specifier, words) is expected


def test_web_fetch_rules_match_the_host_exactly_or_by_wildcard() -> None:
    assert domain_matches("domain:example.com", "https://EXAMPLE.com/a")
    assert not domain_matches("domain:example.com", "https://example.com.evil.org/")
    assert not domain_matches("domain:example.com", "https://docs.example.com/")
    assert domain_matches("domain:*.example.com", "https://docs.example.com/")
    assert not domain_matches("domain:*.example.com", "https://example.com/")
    assert not domain_matches("domain:example.com", "http://[::1/")


@pytest.mark.parametrize(
    ("specifier", "words", "expected"),
    [
        # Claude Code's `*` anywhere: any text, spaces included (issue 25).
        ("ls *", ("ls",), True),  # a trailing ` *` is optional...
        ("ls *", ("lsof",), False),  # ...and starts a new word
        ("ls*", ("lsof", "-i"), True),
        ("git push*", ("git", "push", "origin", "main"), True),
        ("git push*", ("git", "pull"), False),
        ("*appsettings*", ("cat", "config/appsettings.json"), True),
        ("*appsettings*", ("cat", "config/settings.json"), False),
        ("git * main", ("git", "push", "origin", "main"), True),
        ("git * main", ("git", "main"), False),
        ("npm run test*", ("npm", "run", "test:unit"), True),
        ("* --version", ("node", "--version"), True),
        ("echo \\*", ("echo", "*"), True),  # an escaped star is a star
        ("echo '*'", ("echo", "x"), False),  # and so is a quoted one
        ("git commit -m 'a b'*", ("git", "commit", "-m", "a b c"), True),  # quotes keep a space in the word
        ("echo a*", ("echo", "a b"), True),
        # The rule's characters stay inside one word: `npm "run test"` is not `npm run test`.
        ("npm run test", ("npm", "run test"), False),
        # A word known only at run time: a `*` that takes it decides; otherwise, cannot tell.
        ("git push*", ("git", None), None),
        ("echo *", ("echo", None, "x"), True),
        ("*appsettings*", ("cat", None), None),
        ("git push*", ("ls", None), False),
    ],
)
def test_a_star_anywhere_in_a_bash_rule_is_a_wildcard(specifier: str, words: tuple, expected: bool | None) -> None:
    assert command_matches(specifier, words) is expected


def test_a_deny_reads_a_glob_as_every_word_it_could_be() -> None:
    assert command_matches("rm:*", (Glob("r?"), "x"), broad=True) is True
    assert command_matches("rm:*", (Glob("r?"), "x")) is False  # an allow names the pattern itself
    assert command_matches("rm:*", (Glob("[[:lower:]]s"),), broad=True) is False
    # A glob that could meet the rule's own `*` might match: the gate asks.
    assert command_matches("kubectl delete *prod*", ("kubectl", "delete", Glob("p*")), broad=True) is None
    assert command_matches("kubectl delete *prod*", ("kubectl", "get", Glob("p*")), broad=True) is False


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("Bash(:*)", "no command before :*"),
        ("Bash(git:*push)", "may only end"),
        ("Bash(git * push:*)", "ends a prefix"),
        ("Bash(echo \\)", "lone backslash"),
        ("Fetch(domain:x.org)", "no tool answers to 'Fetch'"),
        ("mcp__srv__del*", "only wildcard in an MCP rule"),
        ("mcp__", "write mcp__SERVER"),
        ("mcp__srv__", "write mcp__SERVER"),
        ("mcp__srv__a__b", "write mcp__SERVER"),
        ("Read(!src/**)", "cannot negate"),
        ("Read(~alice/x)", "only `~/`"),
        ("Read([z-a])", "the path pattern cannot be read"),  # a character range backwards
        ("Edit(src/**/[b-a]*)", "the path pattern cannot be read"),
        ("Read(\\)", "the path pattern cannot be read"),  # a lone backslash
        ("Agent(Not An Agent)", "agent's name"),
    ],
)
def test_a_spelling_decode_cannot_honour_is_refused(text: str, problem: str) -> None:
    with pytest.raises(RuleError, match=re.escape(problem)):
        parse_rule(text, Decision.DENY)


@pytest.mark.parametrize("text", ["WebSearch", "NotebookEdit(a.ipynb)", "TodoWrite", "LS", "MultiEdit"])
def test_claude_codes_tools_that_decode_lacks_are_foreign_not_unknown(text: str) -> None:
    with pytest.raises(ForeignRule, match="is a Claude Code tool"):
        parse_rule(text, Decision.DENY)


def test_mcp_rule_names_compare_without_regard_to_case() -> None:
    deny = parse_rule("mcp__srv__delete_file", Decision.DENY)
    assert tool_matches(deny, "mcp__srv__Delete_File")
    assert tool_matches(deny, "MCP__SRV__DELETE_FILE")
    assert not tool_matches(deny, "mcp__srv__delete_files")
    assert tool_matches(parse_rule("MCP__Srv", Decision.DENY), "mcp__srv__x")
    assert tool_matches(parse_rule("mcp__SRV__*", Decision.DENY), "mcp__srv__x")
    every = parse_rule("mcp__*", Decision.DENY)  # decode's: every MCP tool
    assert tool_matches(every, "mcp__any__tool")
    assert not tool_matches(every, "Bash")
    assert not tool_matches(parse_rule("Bash", Decision.DENY), "mcp__x__Bash")


def test_a_settings_file_names_the_line_of_a_spelling_it_cannot_honour(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    settings = home / ".decode" / "settings.json"
    settings.parent.mkdir(parents=True)
    lines = [
        '{"permissions": {',
        '  "allow": [',
        '    "Bash(:*)",',
        '    "WebSearch",',
        '    "Bash(git push*)"',
        "  ]",
        "}}",
    ]
    settings.write_text("\n".join(lines), encoding="utf-8")

    loaded = load_permission_settings(project, home)

    assert [(p.path, p.line) for p in loaded.problems] == [(settings, 3), (settings, 4)]
    assert "no command before :*" in loaded.problems[0].message
    assert "WebSearch is a Claude Code tool" in loaded.problems[1].message
    assert [rule.text for rule in loaded.rules] == ["Bash(git push*)"]


def test_a_deny_of_a_tool_decode_lacks_is_reported_and_breaks_nothing(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    settings = home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text('{"permissions": {"deny": ["WebSearch", "Bash(rm *)"]}}', encoding="utf-8")
    decode_settings = home / ".decode" / "settings.json"
    decode_settings.parent.mkdir(parents=True)
    decode_settings.write_text('{"permissions": {"deny": ["WebSearch", "Bash(rm *)"]}}', encoding="utf-8")

    loaded = load_permission_settings(project, home)

    assert [rule.text for rule in loaded.rules if rule.action is Decision.DENY] == ["Bash(rm *)"]
    assert any("WebSearch" in p.message and "skipped" in p.message for p in loaded.problems)


# Attack review of issue 25 (#8): spellings that could never match, and a program named by its path.
JOINED = [
    "Bash(cd x && make:*)",
    "Bash(*&&*)",
    "Bash(*>*)",
    "Bash(*|*)",
    "Bash(* 2>&1)",
    "Bash(npm run build && *)",
    "Bash(echo hi > out.txt)",
    "Bash(make || true)",
    "Bash(ls; rm x)",
    "Bash(sort < in.txt)",
    "Bash(sleep 5 &)",
]


@pytest.mark.parametrize("text", JOINED)
def test_a_bash_rule_joining_commands_is_refused_naming_the_operator(text: str) -> None:
    with pytest.raises(RuleError, match="a Bash rule names one command; write one rule per command"):
        parse_rule(text, Decision.DENY)


@pytest.mark.parametrize("text", ["Bash(echo 'a && b')", 'Bash(grep "x|y" f)', "Bash(echo \\>)", "Bash(echo \\;)"])
def test_an_operator_quoted_or_escaped_is_a_character_of_a_word(text: str) -> None:
    assert parse_rule(text, Decision.ALLOW).specifier is not None


def test_a_joined_rule_is_reported_with_its_file_and_line_and_not_kept(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    project.mkdir()
    settings = home / ".decode" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text('{"permissions": {"allow": [\n"Bash(cd x && make:*)",\n"Bash(make:*)"]}}', encoding="utf-8")

    loaded = load_permission_settings(project, home)

    assert [(p.path, p.line) for p in loaded.problems] == [(settings, 2)]
    assert "`&&`" in loaded.problems[0].message
    assert [rule.text for rule in loaded.rules] == ["Bash(make:*)"]


@pytest.mark.parametrize(
    ("words", "broad", "expected"),
    [
        (("curl", "x"), True, True),
        (("/usr/bin/curl", "x"), True, True),
        (("wget", "x"), True, False),
        (("curl", "x"), False, False),  # an allow is never widened: it names that path only
        (("/usr/bin/curl", "x"), False, True),
    ],
)
def test_a_rule_naming_a_program_by_its_path_denies_it_by_any_path(
    words: tuple[str, ...], broad: bool, expected: bool
) -> None:
    assert command_matches("/usr/bin/curl:*", words, broad=broad) is expected


async def test_a_deny_on_a_path_denies_the_program_however_it_is_called(tmp_path: Path) -> None:
    gate = PermissionGate([parse_rule("Bash(/usr/bin/curl:*)", Decision.DENY)], Mode.BYPASS, workspace=tmp_path)
    for command in ("curl x", "/bin/curl x", "sudo curl x"):
        verdict = await gate.check("bash", {"command": command}, BASH.traits)
        assert verdict.decision is Decision.DENY, (command, verdict.reason)
