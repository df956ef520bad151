"""Lesson 20's exercise: read a `decode run --output-format stream-json` transcript as a CI script does."""

import json
from collections.abc import Callable

from course import Verdict, check

# A transcript of a run that called three tools at once (two of them `read`): their results came back in
# another order.
PARALLEL = [
    {"type": "init", "session_id": "1a2b3c4d", "model": "script:x.json", "cwd": "/p", "agent": "build",
     "permission_mode": "default", "tools": ["read", "bash"], "sandbox": "none", "resumed": False,
     "decode_version": "0.1.0"},
    {"type": "text", "text": "Both at once."},
    {"type": "tool_call", "id": "c1", "name": "bash", "args": {"command": "rm -rf build"}},
    {"type": "tool_call", "id": "c2", "name": "read", "args": {"path": "README.md"}},
    {"type": "tool_call", "id": "c3", "name": "read", "args": {"path": "missing.md"}},
    {"type": "tool_result", "id": "c2", "name": "read", "is_error": False, "content": "# hi", "truncated": False,
     "duration_s": 0.0},
    {"type": "tool_result", "id": "c3", "name": "read", "is_error": True, "content": "no such file: missing.md",
     "truncated": False, "duration_s": 0.0},
    {"type": "tool_result", "id": "c1", "name": "bash", "is_error": True, "content": "Permission denied: …",
     "truncated": False, "duration_s": 0.0},
    {"type": "result", "result": "Read it; could not clean.", "session_id": "1a2b3c4d", "exit_code": 0,
     "is_error": False},
]  # fmt: skip


def _stream(events: list[dict]) -> str:
    return "".join(json.dumps(event) + "\n" for event in events)


def check_tool_outcomes(tool_outcomes: Callable[[str], tuple[list[tuple[str, bool]], int]]) -> Verdict:
    """`tool_outcomes(stream)`: the tools called, in call order, each with whether it succeeded (its
    result paired by id, not by position), and the run's exit code from the `result` line; a stream
    that does not end with a `result` line (the process died) raises ValueError."""

    def test() -> None:
        calls, code = tool_outcomes(_stream(PARALLEL))
        want = [("bash", False), ("read", True), ("read", False)]
        assert calls == want, f"parallel calls: got {calls}, want {want} (pair each result with its call by id)"
        assert code == 0, f"the exit code is the result line's: got {code}"
        failed = [*PARALLEL[:-1], {**PARALLEL[-1], "exit_code": 3, "is_error": True}]
        assert tool_outcomes(_stream(failed))[1] == 3, "read exit_code from the result line"
        unanswered = [event for event in PARALLEL if not (event["type"] == "tool_result" and event["id"] == "c1")]
        assert tool_outcomes(_stream(unanswered))[0] == want, "a call with no result (the run stopped) did not succeed"
        assert tool_outcomes(_stream(PARALLEL) + "\n")[0], "a blank line at the end is not an event"
        try:
            tool_outcomes(_stream(PARALLEL[:-1]))
        except ValueError:
            pass
        else:
            raise AssertionError("a stream without its result line must raise ValueError")

    return check("tool outcomes from a stream-json transcript", test)
