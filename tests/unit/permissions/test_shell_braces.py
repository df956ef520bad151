"""Bash's brace expansion: `{rm,x} y` is `rm x y` before anything runs."""

import pytest

from decode.permissions.shell_braces import dequote, expand_braces
from decode.permissions.shell_glob import Glob


@pytest.mark.parametrize(
    ("word", "expanded"),
    [
        ("a{b,c}d", ["abd", "acd"]),
        ("{rm,x}", ["rm", "x"]),
        ("{r,}m", ["rm", "m"]),
        ("{1..3}", ["1", "2", "3"]),
        ("{c..a}", ["c", "b", "a"]),
        ("{a,b{1,2}}", ["a", "b1", "b2"]),
        ("'{a,b}'", ["'{a,b}'"]),  # quoted: not an expansion
        ("${x}{a,b}", ["${x}a", "${x}b"]),
        ("{a}", ["{a}"]),
    ],
)
def test_brace_expansion_is_bash_s(word: str, expanded: list[str]) -> None:
    assert expand_braces(word) == expanded


def test_too_many_expansions_are_not_listed() -> None:
    assert expand_braces("{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}") is None


def test_dequote_removes_quotes_and_gives_up_on_expansions() -> None:
    assert dequote("'r'\\m") == "rm"
    assert dequote('"a b"') == "a b"
    assert dequote("$HOME") is None
    assert isinstance(dequote("r*"), Glob)
