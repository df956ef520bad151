"""Lesson 14's exercises: each check runs the learner's function on the cases decode meets."""

import re
from collections.abc import Callable, Mapping

from course import Verdict, check

# --- exercise 1: expand ${VAR} and ${VAR:-default} ------------------------------------------------------

ENV = {"HOME": "/home/ada", "TOKEN": "t0k3n", "EMPTY": ""}
EXPANSIONS = [
    ("${HOME}/bin", "/home/ada/bin"),
    ("--token=${TOKEN}", "--token=t0k3n"),
    ("${MISSING}", ""),
    ("${MISSING:-8080}", "8080"),
    ("${EMPTY:-fallback}", "fallback"),
    ("${TOKEN:-unused}", "t0k3n"),
    ("${MISSING:-}", ""),
    ("a${HOME}b${MISSING:-c}d", "a/home/adab" + "cd"),
    ("$HOME is not ${ a variable }", "$HOME is not ${ a variable }"),
]


def check_expand(expand: Callable[[str, Mapping[str, str]], str]) -> Verdict:
    """`expand(text, env)` replaces `${VAR}` and `${VAR:-default}` as the shell does, and nothing else."""

    def test() -> None:
        for text, expected in EXPANSIONS:
            got = expand(text, ENV)
            assert got == expected, f"expand({text!r}) with {ENV}: expected {expected!r}, got {got!r}"

    return check("${VAR} and ${VAR:-default} expanded like the shell", test)


# --- exercise 2: a tool name every provider accepts -----------------------------------------------------

PROVIDER_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
NAMES = [
    (("time", "get_current_time"), "mcp__time__get_current_time"),
    (("my.server", "search docs"), "mcp__my_server__search_docs"),
    (("github", "create-issue"), "mcp__github__create-issue"),
    (("a__b", "c"), "mcp__a_b__c"),
    (("files", "_read__file_"), "mcp__files__read_file"),
]


def check_tool_name(tool_name: Callable[[str, str], str]) -> Verdict:
    """`tool_name(server, tool)` is `mcp__<server>__<tool>` in `[A-Za-z0-9_-]`, at most 64 characters,
    with no `__` inside a part (it separates the parts)."""

    def test() -> None:
        for (server, tool), expected in NAMES:
            got = tool_name(server, tool)
            assert got == expected, f"tool_name({server!r}, {tool!r}): expected {expected!r}, got {got!r}"
        long = tool_name("catalogue", "find_every_record_whose_title_mentions_the_query_in_any_language")
        assert PROVIDER_NAME.fullmatch(long), f"{long!r} ({len(long)} characters): providers take at most 64"
        assert long.startswith("mcp__catalogue__find_every"), f"a long name keeps its start, got {long!r}"
        odd = tool_name("日本", "时间 now!")
        assert PROVIDER_NAME.fullmatch(odd), f"{odd!r}: only ASCII letters, digits, _ and -"

    return check("MCP tool names every provider accepts", test)
