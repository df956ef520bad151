"""Reading rules like Claude Code's, and matching them without being fooled by spelling."""

from pathlib import Path

import pytest

from decode.entities.tools import ToolKind, ToolTraits
from decode.permissions.gate import PermissionGate
from decode.permissions.rules import (
    RULE_NAMES,
    RuleError,
    command_matches,
    domain_matches,
    parse_rule,
    tool_matches,
)
from decode.permissions.types import Decision
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
