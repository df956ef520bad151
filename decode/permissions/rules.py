"""Permission rules written like Claude Code's, so users' habits carry over.

    Bash                     every bash command
    Bash(npm test)           exactly `npm test`
    Bash(git diff:*)         `git diff` followed by anything (`Bash(git diff *)` too)
    Read(src/**)             reading files under src/ (Glob and Grep count as reading)
    Edit(docs/**)            changing files under docs/ (Write counts as editing)
    Write(notes.md)          creating or overwriting notes.md
    WebFetch(domain:x.org)   fetching from host x.org (`*.x.org` for its subdomains)
    mcp__github              every tool of the MCP server `github`
    mcp__github__get_issue   one MCP tool

Rule names are matched case-insensitively against their canonical spellings only: `bAsH(ls)` is
`Bash(ls)`, but `Bаsh` with a Cyrillic "а" is an error, not a rule. Tool names the model calls
are never normalised: a tool answers only to the rule names its traits declare.
"""

import re
import shlex
from collections.abc import Sequence
from functools import lru_cache
from urllib.parse import urlsplit

from decode.permissions.shell import Glob, glob_matches
from decode.permissions.types import Decision, Rule, RuleSource

# The rule names of the rule language, in their canonical spelling. Which tools answer to which
# names is not here: each tool declares it in its traits (`ToolTraits.rules`).
# [lesson 13]
RULE_NAMES = ("Bash", "Read", "Edit", "Write", "Glob", "Grep", "WebFetch", "Lsp")
# [before lesson 13]
# RULE_NAMES = ("Bash", "Read", "Edit", "Write", "Glob", "Grep", "WebFetch")
# [/lesson 13]
# A file a bash redirection writes (`> out.txt`) or reads (`< in.txt`) is governed like these.
REDIRECT_WRITE_RULES = ("Write", "Edit")
REDIRECT_READ_RULES = ("Read",)

# [lesson 13]
PATH_RULES = frozenset({"Read", "Edit", "Write", "Glob", "Grep", "Lsp"})
# [before lesson 13]
# PATH_RULES = frozenset({"Read", "Edit", "Write", "Glob", "Grep"})
# [/lesson 13]
# [lesson 14]
NETWORK_RULE = "Network"
"""`Network(npm install:*)`: commands that may reach the network in a sandbox that isolates it
(a bash-style pattern, matched command by command as `Bash` rules are)."""
# [/lesson 14]
# [lesson 12]
SUBAGENT_RULES = ("Agent", "Task")
"""The `agent` tool's rule names (Claude Code's `Task`): bare, every subagent; `Agent(explore)`, one agent."""
_AGENT_NAME = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*|\*")
_CANONICAL = {name.lower(): name for name in (*RULE_NAMES, *SUBAGENT_RULES)}
# [before lesson 12]
# _CANONICAL = {name.lower(): name for name in RULE_NAMES}
# [/lesson 12]
_CANONICAL[NETWORK_RULE.lower()] = NETWORK_RULE  # [lesson 14]
_TOOL_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_HOST = re.compile(r"(\*\.)?[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?", re.IGNORECASE)  # `_`: compose service names


class RuleError(ValueError):
    """A rule that cannot be read; the message says what is wrong with it."""


def parse_rule(text: str, action: Decision, source: RuleSource | None = None) -> Rule:
    """Read one rule string, such as `Bash(git diff:*)`, or raise `RuleError`."""
    text = text.strip()
    name, paren, rest = text.partition("(")
    if paren and not rest.endswith(")"):
        raise RuleError(f"rule {text!r} opens a parenthesis it does not close")
    if paren and not _balanced(rest[:-1]):
        # `Bash(rm:*))` would otherwise be the pattern `rm:*)`, which matches nothing: a deny that denies nothing.
        raise RuleError(f"rule {text!r}: its parentheses do not pair up")
    if not _TOOL_NAME.fullmatch(name.removesuffix("__*") if name.startswith("mcp__") else name):
        raise RuleError(f"rule {text!r}: a tool name is ASCII letters, digits, '_' and '-'")
    tool = _CANONICAL.get(name.lower(), name)
    specifier = rest[:-1].strip() if paren else None
    if specifier is not None:
        _check_specifier(tool, specifier, text)
    return Rule(action=action, tool=tool, specifier=specifier, source=source)


def _balanced(text: str) -> bool:
    """True when every `)` in `text` closes a `(` before it, and every `(` is closed."""
    depth = 0
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def _check_specifier(tool: str, specifier: str, text: str) -> None:
    if not specifier:
        raise RuleError(f"rule {text!r} has empty parentheses; write the bare name {tool!r} to mean every call")
    if tool == "Bash" and specifier != "*":
        try:
            command_pattern(specifier)
        except ValueError as exc:
            raise RuleError(f"rule {text!r}: the command cannot be read ({exc})") from None
    elif tool == "WebFetch":
        domain = specifier.removeprefix("domain:")
        if domain == specifier or not _HOST.fullmatch(domain):
            raise RuleError(f"rule {text!r}: WebFetch takes `domain:HOST`, like WebFetch(domain:example.com)")
    # [lesson 12]
    elif tool in SUBAGENT_RULES:
        if not _AGENT_NAME.fullmatch(specifier):
            raise RuleError(f"rule {text!r}: {tool} takes an agent's name, like {tool}(explore), or *")
    # [/lesson 12]
    # [lesson 14]
    elif tool == NETWORK_RULE:
        if specifier != "*":
            try:
                command_pattern(specifier)
            except ValueError as exc:
                raise RuleError(f"rule {text!r}: the command cannot be read ({exc})") from None
    # [/lesson 14]
    elif tool not in PATH_RULES and tool != "Bash":
        raise RuleError(f"rule {text!r}: {tool} takes no parentheses")


def tool_matches(rule: Rule, rule_name: str) -> bool:
    """Does `rule` name a tool that answers to `rule_name` (one of its traits' rule names)?

    `mcp__server` and `mcp__server__*` cover all of a server's tools.
    """
    if rule.tool == rule_name:
        return True
    if rule.tool.startswith("mcp__"):
        server = rule.tool.removesuffix("__*")
        return server.count("__") == 1 and rule_name.startswith(server + "__")
    return False


@lru_cache(maxsize=1024)
def command_pattern(specifier: str) -> tuple[tuple[str, ...], bool]:
    """A Bash specifier as (words, is_prefix): `git diff:*` → (("git", "diff"), True)."""
    prefix = specifier.endswith((":*", " *"))
    words = tuple(shlex.split(specifier[:-2] if prefix else specifier))
    if not words:
        raise ValueError("no command")
    return words, prefix


def command_matches(specifier: str | None, words: Sequence[str | None], *, broad: bool = False) -> bool | None:
    """Does a Bash specifier match this command's words? None means "cannot tell".

    A word that is only known when the shell runs (`$VAR`, `$(…)`) is None: where the rule
    compares such a word, the answer is unknown, which the gate never treats as an allow. A
    file-name pattern (`r?`, a `Glob`) matches only itself, except for a deny or ask rule
    (`broad`): there it matches every word it could expand to, so `/bin/r? x` is `rm x`.
    """
    if specifier is None or specifier == "*":
        return True
    expected, prefix = command_pattern(specifier)
    for want, word in zip(expected, words, strict=False):
        if word is None:
            # A run-time word may expand to several words or to none: from here on, unknown.
            return None
        if word != want and not (broad and isinstance(word, Glob) and glob_matches(word, want)):
            return False
    if len(words) < len(expected) or (not prefix and len(words) != len(expected)):
        return None if None in words else False
    return True


def domain_matches(specifier: str | None, url: str) -> bool:
    """Does `WebFetch(domain:HOST)` cover this URL? `*.HOST` covers subdomains, not HOST itself."""
    if specifier is None:
        return True
    try:
        host = dns_name(urlsplit(url).hostname or "")
    except ValueError:
        return False
    domain = specifier.removeprefix("domain:").lower()
    if domain.startswith("*."):
        return host.endswith(domain[1:])
    return host == domain


def dns_name(host: str) -> str:
    """The host as DNS reads it: `evil.org.` is `evil.org`, and so (IDNA) are `evil。org` and `ｅvil.org`."""
    name = host.lower().rstrip(".")
    if name.isascii():
        return name
    try:
        return name.encode("idna").decode("ascii").lower().rstrip(".")
    except UnicodeError:  # no IDNA spelling: the resolver cannot read it either
        return name


def is_rule_host(host: str) -> bool:
    """Can `WebFetch(domain:HOST)` name this host?"""
    return _HOST.fullmatch(host) is not None
