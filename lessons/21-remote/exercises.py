"""Lesson 21's exercise: pick the attempt to review first, of N attempts at one task."""

from collections.abc import Callable

from course import Verdict, check

# Three attempts at one task, as `decode remote attempts 3` returns them.
ATTEMPTS = [
    {"exit_code": 0, "usage": {"total_tokens": 9000}, "diff": {"insertions": 40, "deletions": 2},
     "handback": {"branch": "decode/aaaa1111", "outcome": "shipped"}},
    {"exit_code": 1, "usage": {"total_tokens": 300}, "diff": {"insertions": 1, "deletions": 0},
     "handback": {"branch": "decode/bbbb2222", "outcome": "shipped"}},
    {"exit_code": 0, "usage": {"total_tokens": 9500}, "diff": {"insertions": 5, "deletions": 1},
     "handback": {"branch": "decode/cccc3333", "outcome": "shipped"}},
]  # fmt: skip


def check_best_attempt(best_attempt: Callable[[list[dict]], int | None]) -> Verdict:
    """`best_attempt(results)`: the number (1-based) of the attempt to review first: among the runs
    that ended with exit code 0 and shipped (`handback.outcome == "shipped"`), the smallest diff
    (insertions + deletions), fewer tokens breaking a tie; None when no attempt qualifies."""

    def test() -> None:
        got = best_attempt(ATTEMPTS)
        assert got == 3, (
            f"got {got}: attempt 2 is smaller but it failed (exit code 1); 3 is the smallest diff that passed "
            "(attempt 1 used fewer tokens, but tokens only break a tie)"
        )
        tie = [ATTEMPTS[0], {**ATTEMPTS[0], "usage": {"total_tokens": 100}}]
        assert best_attempt(tie) == 2, "equal diffs: the one that used fewer tokens"
        unshipped = [{**ATTEMPTS[2], "handback": {"branch": "decode/x", "outcome": "nothing"}}, ATTEMPTS[0]]
        assert best_attempt(unshipped) == 2, "an attempt that shipped nothing has nothing to review"
        assert best_attempt([ATTEMPTS[1]]) is None, "no attempt passed: None"
        assert best_attempt([{**ATTEMPTS[0], "handback": None}]) is None, "no hand-back (it could not start): None"

    return check("the best of N attempts", test)
