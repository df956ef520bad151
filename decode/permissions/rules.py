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
are never normalised: a tool answers only to the rule names its traits declare. MCP names are
the exception both ways: `mcp__srv__delete_file` also stops a server's `Delete_File`, since
servers choose their tools' names. A name decode does not know is an error; one of Claude
Code's own tools that decode does not have (`WebSearch`) is a `ForeignRule`: nothing to govern.
`*` in a Bash rule is Claude Code's wildcard (`command_patterns.py`).
"""

import re
from collections.abc import Callable, Sequence
from urllib.parse import urlsplit

from decode.permissions.agent_rules import SUBAGENT_RULES, agent_name_problem
from decode.permissions.command_patterns import JoinedCommands, PatternError, command_pattern, pattern_matches
from decode.permissions.network_rules import NETWORK_RULE, network_pattern_problem
from decode.permissions.paths import compile_pattern
from decode.permissions.types import Decision, Rule, RuleSource

# The rule names of the rule language, in their canonical spelling. Which tools answer to which
# names is not here: each tool declares it in its traits (`ToolTraits.rules`).
RULE_NAMES = (
    "Bash",
    "Read",
    "Edit",
    "Write",
    "Glob",
    "Grep",
    "WebFetch",
    "Lsp",  # [lesson 16]
)
# A file a bash redirection writes (`> out.txt`) or reads (`< in.txt`) is governed like these.
REDIRECT_WRITE_RULES = ("Write", "Edit")
REDIRECT_READ_RULES = ("Read",)
PATH_RULES = frozenset(RULE_NAMES) - {"Bash", "WebFetch"}
"""The rule names whose specifier is a path (`Read(src/**)`)."""
_TOOL_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_HOST = re.compile(r"(\*\.)?[a-z0-9_]([a-z0-9_.-]*[a-z0-9_])?", re.IGNORECASE)  # `_`: compose service names


MCP_PREFIX = "mcp__"
# Claude Code's tools decode has no counterpart a rule could govern, and where to look instead.
FOREIGN_TOOLS: dict[str, tuple[str, str]] = {
    name.lower(): (name, why)
    for why, names in {
        "decode has no such tool": "WebSearch Artifact Monitor PowerShell CronCreate CronDelete CronList "
        "EnterWorktree ExitWorktree SendMessage TaskCreate TaskGet TaskList TaskUpdate TaskOutput TaskStop "
        "KillShell BashOutput ListMcpResourcesTool ReadMcpResourceTool ToolSearch",
        "decode's own tool for it needs no permission": "TodoWrite AskUserQuestion ExitPlanMode EnterPlanMode "
        "Skill SlashCommand",
        "decode edits files (notebooks too) with edit and write: write Edit(…)": "MultiEdit NotebookEdit",
        "decode reads with read, glob and grep: write Read(…)": "LS NotebookRead",
    }.items()
    for name in names.split()
}


class RuleError(ValueError):
    """A rule that cannot be read; the message says what is wrong with it."""


class ForeignRule(RuleError):
    """A rule for one of Claude Code's tools that decode does not have: it governs nothing here."""


def parse_rule(text: str, action: Decision, source: RuleSource | None = None) -> Rule:
    """Read one rule string, such as `Bash(git diff:*)`, or raise `RuleError`."""
    text = text.strip()
    name, paren, rest = text.partition("(")
    if paren and not rest.endswith(")"):
        raise RuleError(f"rule {text!r} opens a parenthesis it does not close")
    if paren and not _balanced(rest[:-1]):
        # `Bash(rm:*))` would otherwise be the pattern `rm:*)`, which matches nothing: a deny that denies nothing.
        raise RuleError(f"rule {text!r}: its parentheses do not pair up")
    mcp = name.lower().startswith(MCP_PREFIX)
    if mcp and "*" in name.removesuffix("__*"):
        raise RuleError(f"rule {text!r}: the only wildcard in an MCP rule is a whole tool: mcp__SERVER__*")
    if not _TOOL_NAME.fullmatch(name.removesuffix("__*") if mcp else name):
        raise RuleError(f"rule {text!r}: a tool name is ASCII letters, digits, '_' and '-'")
    tool = _CANONICAL.get(name.lower(), name)
    _check_name(tool, text)
    specifier = rest[:-1].strip() if paren else None
    if specifier is not None:
        _check_specifier(tool, specifier, text)
    return Rule(action=action, tool=tool, specifier=specifier, source=source)


def _check_name(tool: str, text: str) -> None:
    """Refuse a name no tool of decode answers to: such a rule would match nothing, silently."""
    if tool in _CANONICAL.values():
        return
    if tool.lower().startswith(MCP_PREFIX):
        server, _, rest = tool[len(MCP_PREFIX) :].partition("__")
        if tool != "mcp__*" and (not server or "__" in rest or (_ and not rest) or server.startswith("_")):
            raise RuleError(f"rule {text!r}: write mcp__SERVER, mcp__SERVER__* or mcp__SERVER__TOOL")
        return
    if tool.lower() in FOREIGN_TOOLS:
        name, why = FOREIGN_TOOLS[tool.lower()]
        raise ForeignRule(f"rule {text!r}: {name} is a Claude Code tool; {why}, so the rule governs nothing")
    names = ", ".join(sorted({*_CANONICAL.values()}))
    raise RuleError(f"rule {text!r}: no tool answers to {tool!r}; rule names are {names} and mcp__SERVER…")


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
    problem = _SPECIFIERS.get(tool)
    why = problem(tool, specifier) if problem is not None else f"{tool} takes no parentheses"
    if why is not None:
        raise RuleError(f"rule {text!r}: {why}")


def _command_problem(tool: str, specifier: str) -> str | None:
    """What is wrong with `Bash(SPECIFIER)`: a command pattern (one command), or `*`."""
    if specifier == "*":
        return None
    try:
        command_pattern(specifier)
    except JoinedCommands as exc:
        return str(exc)
    except PatternError as exc:
        return f"the command cannot be read ({exc})"
    return None


def _domain_problem(tool: str, specifier: str) -> str | None:
    """What is wrong with `WebFetch(SPECIFIER)`: it takes `domain:HOST`."""
    domain = specifier.removeprefix("domain:")
    if domain == specifier or not _HOST.fullmatch(domain):
        return "WebFetch takes `domain:HOST`, like WebFetch(domain:example.com)"
    return None


def _path_problem(tool: str, specifier: str) -> str | None:
    """Refuse the gitignore spellings that would match nothing, or not what they seem to."""
    if specifier.startswith("!"):
        return "a path rule cannot negate (`!`); an allow rule grants, a deny refuses"
    if specifier.startswith("~") and not (specifier == "~" or specifier.startswith("~/")):
        return "only `~/` (your home) is understood, not another user's `~name`"
    if "\0" in specifier:
        return "a path holds no NUL character"
    try:  # compiled now, so a pattern git cannot read is this one line, not an error at every check
        compile_pattern(specifier, "/", "/")
    except (re.error, ValueError) as exc:
        return f"the path pattern cannot be read ({exc})"
    return None


# How each rule name's specifier is read: what is wrong with it, or None. A name not here takes none.
_SPECIFIERS: dict[str, Callable[[str, str], str | None]] = {
    "Bash": _command_problem,
    "WebFetch": _domain_problem,
    **dict.fromkeys(PATH_RULES, _path_problem),
    **dict.fromkeys(SUBAGENT_RULES, agent_name_problem),  # [lesson 15]
    NETWORK_RULE: network_pattern_problem,  # [lesson 17]
}
_CANONICAL = {name.lower(): name for name in _SPECIFIERS}


def tool_matches(rule: Rule, rule_name: str) -> bool:
    """Does `rule` name a tool that answers to `rule_name` (one of its traits' rule names)?

    `mcp__server` and `mcp__server__*` cover all of a server's tools (`mcp__*`: every MCP
    tool); MCP names compare without regard to case, as servers spell their tools as they like.
    """
    if rule.tool == rule_name:
        return True
    tool, name = rule.tool.lower(), rule_name.lower()
    if not (tool.startswith(MCP_PREFIX) and name.startswith(MCP_PREFIX)):
        return False
    if tool in ("mcp__*", name):
        return True
    server = tool.removesuffix("__*")
    return server.count("__") == 1 and name.startswith(server + "__")


def command_matches(specifier: str | None, words: Sequence[str | None], *, broad: bool = False) -> bool | None:
    """Does a Bash specifier match this command's words? None means "cannot tell".

    A word that is only known when the shell runs (`$VAR`, `$(…)`) is None: where the rule
    compares such a word, the answer is unknown, which the gate never treats as an allow. A
    file-name pattern (`r?`, a `Glob`) matches only itself, except for a deny or ask rule
    (`broad`): there it matches every word it could expand to, so `/bin/r? x` is `rm x`.
    """
    if specifier is None or specifier == "*":
        return True
    return pattern_matches(command_pattern(specifier), words, broad=broad)


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
