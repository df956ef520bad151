"""Bash's pattern matching: which names a glob could match, and whether two patterns overlap."""

import pytest

from decode.permissions.shell_glob import glob_matches, globs_overlap


@pytest.mark.parametrize(
    ("pattern", "name", "matches"),
    [
        ("r?", "rm", True),
        ("r*", "rm", True),
        ("r[m]", "rm", True),
        ("r[[:lower:]]", "rm", True),
        ("r[!m]", "rm", False),
        ("r[^m]", "rm", False),
        ("*", ".env", False),  # a leading dot must be matched by a dot
        (".e*", ".env", True),
        ("r\\m", "rm", True),
        ("?(rm)", "rm", True),
    ],
)
def test_glob_matches_is_bash_s_pattern_matching(pattern: str, name: str, matches: bool) -> None:
    assert glob_matches(pattern, name) is matches


@pytest.mark.parametrize(
    ("pattern", "other", "overlap"),
    [
        ("server.ke?", "*.key", True),
        ("cred*", "credentials.json", True),
        (".e*", ".env.*", True),
        ("*.txt", "*.key", False),
        ("*", ".env", False),
        ("?env", ".env", False),
    ],
)
def test_two_patterns_overlap_when_one_name_could_match_both(pattern: str, other: str, overlap: bool) -> None:
    assert globs_overlap(pattern, other) is overlap
