"""Lesson 24's exercises: pass@k, a grader that trusts no verifier, a metric over a session's tool calls."""

import math
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from course import Verdict, check

Calls = list[tuple[str, dict[str, Any]]]


def check_pass_at_k(pass_at_k: Callable[[int, int, int], float]) -> Verdict:
    """`pass_at_k(n, c, k)`: from n trials of a task of which c passed, the chance that at least
    one of k trials passes (the unbiased estimator, not (c/n) and not 1 - (1 - c/n)**k)."""

    from evals import metrics  # the benchmark's own pass@k is the reference

    def test() -> None:
        for n, c, k in [(1, 1, 1), (1, 0, 1), (10, 3, 1), (10, 3, 5), (5, 0, 3), (5, 5, 5), (4, 2, 3), (20, 1, 10)]:
            got, want = pass_at_k(n, c, k), metrics.pass_at_k(n, c, k)
            assert isinstance(got, float | int), f"pass_at_k({n}, {c}, {k}) returned {got!r}, not a number"
            assert math.isclose(got, want, abs_tol=1e-9), f"pass_at_k({n}, {c}, {k}) is {want:.4f}, not {got:.4f}"

    return check("pass@k: the chance that one of k trials passes, estimated from n trials", test)


def check_read_reward(read_reward: Callable[[Path], float]) -> Verdict:
    """`read_reward(path)`: the reward a verifier wrote to `path` (its reward.txt), a float in [0, 1];
    0.0 when the file is missing, empty or garbled (a grader never crashes on a verifier's output)."""
    from evals.benchmark import grade  # the runner's own reader is the reference

    def test() -> None:
        texts = ["1\n", "0\n", " 1 ", "0.5", "", "PASSED", "nan", "7", "-1", "1\n1\n"]
        with tempfile.TemporaryDirectory() as scratch:
            path = Path(scratch) / "reward.txt"
            got = read_reward(path)
            assert got == 0.0, f"no reward.txt (the verifier crashed before writing one) is 0.0, not {got!r}"
            for text in texts:
                path.write_text(text)
                got, (want, _) = read_reward(path), grade.read_reward(path)
                assert got == want, f"reward.txt holding {text!r} is {want}, not {got!r}"
            path.write_bytes(b"\xff\xfe1")
            got = read_reward(path)
            assert got == 0.0, f"reward.txt holding bytes that are not UTF-8 is 0.0, not {got!r}"
            path.unlink()
            path.mkdir()  # a sabotaged verifier can leave a folder where the file should be
            got = read_reward(path)
            assert got == 0.0, f"a folder named reward.txt is 0.0, not {got!r}"

    return check("a reward read from reward.txt; missing or garbled is 0.0", test)


def check_edits_without_read(edits_without_read: Callable[[Calls, set[str]], list[str]]) -> Verdict:
    """`edits_without_read(calls, existing)`: from a session's tool calls `(name, args)` in order and
    the files that existed before the run, the existing files an `edit` or `write` changed before
    the agent had `read` them, in order, each once (the regression suite's read_before_edit)."""

    def test() -> None:
        existing = {"a.py", "b.py", "c.py", "d.py"}
        good: Calls = [("read", {"path": "a.py"}), ("edit", {"path": "a.py", "old_string": "x", "new_string": "y"})]
        assert edits_without_read(good, existing) == [], "a read, then an edit of the same file, is how it should be"
        blind: Calls = [("edit", {"path": "a.py", "old_string": "x", "new_string": "y"}), ("read", {"path": "a.py"})]
        got = edits_without_read(blind, existing)
        assert got == ["a.py"], f"an edit before the read of its file is blind: ['a.py'], not {got!r}"
        mixed: Calls = [
            ("read", {"path": "b.py"}),
            ("edit", {"path": "c.py", "old_string": "1", "new_string": "2"}),
            ("bash", {"command": "cat d.py"}),
            ("edit", {"path": "b.py", "old_string": "1", "new_string": "2"}),
            ("edit", {"path": "c.py", "old_string": "2", "new_string": "3"}),
            ("write", {"path": "e.py", "content": "x = 1\n"}),
            ("edit", {"path": "e.py", "old_string": "1", "new_string": "2"}),
            ("write", {"path": "d.py", "content": "y = 2\n"}),
        ]
        out_of_order: Calls = [
            ("write", {"path": "d.py", "content": "1\n"}),
            ("edit", {"path": "c.py", "old_string": "1", "new_string": "2"}),
            ("write", {"path": "d.py", "content": "2\n"}),
        ]
        got = edits_without_read(out_of_order, existing)
        assert got == ["d.py", "c.py"], f"in the order they were changed, each once: ['d.py', 'c.py'], not {got!r}"
        got = edits_without_read(mixed, existing)
        assert got == ["c.py", "d.py"], (
            "c.py was edited and d.py overwritten unread (each named once, in order; e.py is new, so there"
            f" was nothing to read; `bash cat` is not the read tool): ['c.py', 'd.py'], not {got!r}"
        )

    return check("read-before-edit: the existing files changed blind, from the tool calls in order", test)
