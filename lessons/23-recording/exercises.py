"""Lesson 23's exercise: answer a replayed tool call with the result the baseline recorded."""

from collections.abc import Callable
from typing import Any

from course import Verdict, check

Call = tuple[str, dict[str, Any]]
History = list[tuple[str, dict[str, Any], Any]]
Lookup = Callable[[str, dict[str, Any]], Any]

HISTORY: History = [
    ("read", {"path": "a.py"}, "first version"),
    ("bash", {"command": "pytest"}, "1 failed"),
    ("read", {"path": "a.py"}, "second version"),
    ("bash", {"command": "pytest"}, "all passed"),
]
MISS = object()


def check_recorded_results(recorded_results: Callable[[History, object], Lookup]) -> Verdict:
    """`recorded_results(history, miss)`: a `lookup(name, args)` that answers each call with the
    result the baseline recorded for the same call, identical calls in the order they happened,
    and `miss` for a call the baseline never made (or made fewer times)."""

    def test() -> None:
        lookup = recorded_results(HISTORY, MISS)
        assert callable(lookup), "return a function lookup(name, args)"
        got = lookup("read", {"path": "a.py"})
        assert got == "first version", f"the first read of a.py gets the first recorded result, not {got!r}"
        got = lookup("read", {"path": "a.py"})
        assert got == "second version", (
            f"the same call again gets the next recorded result (the file changed between them), not {got!r}"
        )
        assert lookup("read", {"path": "a.py"}) is MISS, "a third read of a.py was never recorded: `miss`"
        assert lookup("bash", {"command": "pytest"}) == "1 failed", "each call has its own count"
        assert lookup("read", {"path": "b.py"}) is MISS, "a call the baseline never made: `miss`"
        assert lookup("bash", {"command": "pytest -x"}) is MISS, "other arguments are another call"
        fresh = recorded_results(HISTORY, MISS)
        assert fresh("read", {"path": "a.py"}) == "first version", "each lookup counts on its own"

    return check("recorded tool results, by call, in the order they happened; a miss is a miss", test)
