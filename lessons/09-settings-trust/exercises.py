"""Lesson 09's exercise: a fingerprint of what a repository grants, so that a changed grant asks again.

`check_fingerprint(candidate)` runs the learner's function on pairs of grants (the shape
`ProjectGrants.content` gives: file -> {"allow": [...], "defaultMode": ...}) and shows ✓ or ✗ with
the first case it gets wrong (`course.check`). The reference solution is in `solutions.py`.
"""

from collections.abc import Callable
from typing import Any

from course import Verdict, check

BASE = {".decode/settings.json": {"allow": ["Bash(npm test)"]}}

# (grants, other grants, same fingerprint?, why)
PAIRS: list[tuple[dict[str, Any], dict[str, Any], bool, str]] = [
    (BASE, {".decode/settings.json": {"allow": ["Bash(npm test)"]}}, True, "the same grants, written again"),
    (
        {"a.json": {"allow": ["Bash(ls)"]}, "b.json": {"defaultMode": "acceptEdits"}},
        {"b.json": {"defaultMode": "acceptEdits"}, "a.json": {"allow": ["Bash(ls)"]}},
        True,
        "the same grants, the files in another order (a dict's order is not what the user was shown)",
    ),
    (
        BASE,
        {".decode/settings.json": {"allow": ["Bash(npm test)", "Bash(curl:*)"]}},
        False,
        "a `git pull` added Bash(curl:*): the user never saw it",
    ),
    (BASE, {".decode/settings.json": {"allow": ["Bash(npm test:*)"]}}, False, "a rule was widened"),
    (
        BASE,
        {".decode/settings.json": {"allow": ["Bash(npm test)"], "defaultMode": "acceptEdits"}},
        False,
        "the file now chooses acceptEdits",
    ),
    (BASE, {".claude/settings.json": {"allow": ["Bash(npm test)"]}}, False, "the grant moved to another file"),
    (
        {"a.json": {"allow": ["Bash(ls)", "Bash(pwd)"]}},
        {"a.json": {"allow": ["Bash(ls) Bash(pwd)"]}},
        False,
        "two rules are not one rule with a space in it: hash a structure, not joined text",
    ),
]


def check_fingerprint(fingerprint: Callable[[dict[str, Any]], str]) -> Verdict:
    """`fingerprint(grants)` is a string that changes whenever what the user would be shown changes."""

    def test() -> None:
        for first, second, same, why in PAIRS:
            one, other = fingerprint(first), fingerprint(second)
            assert isinstance(one, str), f"fingerprint returned {type(one).__name__}, not a string"
            if same:
                assert one == other, f"{first} and {second} must have one fingerprint: {why}"
            else:
                assert one != other, f"{first} and {second} must have different fingerprints: {why}"

    return check("fingerprint: equal grants hash alike, any change to a rule, mode or file does not", test)
