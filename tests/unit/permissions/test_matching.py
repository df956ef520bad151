"""Matching path rules: the Rule Screen never rules out a file a rule covers, so no verdict changes."""

import itertools
from pathlib import Path

import pytest

from decode.permissions import paths
from decode.permissions.matching import RuleScreen, covers
from decode.permissions.rules import parse_rule
from decode.permissions.shell import Glob
from decode.permissions.types import Decision, Rule
from tests.unit.permissions.test_gate import corpus_places, judge_corpus

__all__ = ["corpus_places"]  # the corpus's world, a fixture of test_gate

WORKSPACE, HOME = "/w", "/h"
# Specifiers of every shape a path rule takes: names at any depth, folders (`secrets/`, whose
# regex names the folder's `/`), anchored paths, `**` in the middle, home and absolute bases,
# `..` climbing out, character classes, escapes, the whole tree.
SPECIFIERS = [
    ".env", "*.pem", "secrets/", "secrets/**", "/src/**", "./docs/*.md", "a/**/b", "~/.ssh/**", "//etc/**",
    "../shared/**", "[.]env", "x?y", "\\#notes", "**", ".", "~", "//", "src", "*.k[e]y", "deep/er/",
]  # fmt: skip
PATHS = [
    "/w", "/w/.env", "/w/sub/.env", "/w/.envrc", "/w/key.pem", "/w/secrets", "/w/secrets/k", "/w/a/secrets/x",
    "/w/src/app.py", "/w/sub/src/app.py", "/w/docs/guide.md", "/w/docs/a/guide.md", "/w/a/b", "/w/a/x/y/b",
    "/w/a/bc", "/h/.ssh/id_rsa", "/h/.sshx", "/etc/passwd", "/etcx", "/shared/f", "/w/xzy", "/w/#notes", "/w/c.key",
    "/w/deep/er", "/w/deep/er/f", "/", "/h", "/other/file",
]  # fmt: skip


def _rules(specifiers: tuple[str, ...]) -> list[Rule]:
    return [parse_rule(f"Read({specifier})", Decision.DENY) for specifier in specifiers]


@pytest.mark.parametrize("size", [1, 2, 3])
def test_the_screen_says_yes_exactly_when_a_rule_covers_the_file(size: int) -> None:
    for specifiers in itertools.combinations(SPECIFIERS, size):
        rules = _rules(specifiers)
        screen = RuleScreen(rules, WORKSPACE, HOME)
        patterns = [paths.compile_pattern(rule.specifier, WORKSPACE, HOME) for rule in rules]
        for path, written, broad, searches in itertools.product(PATHS, [None, "/w/link"], [True, False], [True, False]):
            walked = any(covers(p, path, written, broad=broad, searches=searches) for p in patterns)
            screened = screen.may_cover(path, written, broad=broad, searches=searches)
            assert screened == walked, (specifiers, path, written, broad, searches)


def test_a_rule_naming_no_file_leaves_every_file_to_the_rules() -> None:
    anything = RuleScreen([parse_rule("Read", Decision.DENY)], WORKSPACE, HOME)  # no specifier: every file
    assert anything.may_cover("/nowhere", None, broad=True, searches=False)
    assert not RuleScreen([], WORKSPACE, HOME).may_cover("/w/.env", None, broad=True, searches=False)


@pytest.mark.parametrize("specifier", ["[z-a]", "\\", "a["])
def test_a_rule_the_screen_cannot_join_leaves_every_file_to_the_rules(specifier: str) -> None:
    """A bad range, a lone backslash (pathspec refuses both; `parse_rule` refuses them now, so they are
    built by hand) or a pattern with no regex: the screen never raises, and leaves them to the walk."""
    screen = RuleScreen([*_rules((".env",)), Rule(Decision.DENY, "Read", specifier)], WORKSPACE, HOME)
    assert screen.may_cover("/w/src/app.py", None, broad=True, searches=False)


def test_a_pattern_word_is_left_to_the_rules() -> None:
    screen = RuleScreen(_rules((".env",)), WORKSPACE, HOME)
    assert screen.may_cover(Glob("/w/.e*"), None, broad=True, searches=False)


async def test_every_corpus_case_gets_the_same_verdict_with_and_without_the_screen(
    corpus_places: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The corpus's own cases (its settings, files and symlinks), judged twice: screened, and with
    every rule walked one by one as before the screen. Decision, reason and rule must be equal."""
    screened = await judge_corpus(corpus_places)
    monkeypatch.setattr(RuleScreen, "may_cover", lambda *_, **__: True)  # the rule-by-rule walk
    walked = await judge_corpus(corpus_places)
    assert len(walked) > 600
    assert sum(v.rule is not None and v.rule.specifier is not None for _, v in walked) > 100  # rules did decide
    assert screened == walked
