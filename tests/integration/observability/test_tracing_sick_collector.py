"""A sick Opik collector changes nothing of a `decode run` but one warning line: ADR-0098.

Each test runs `decode run` as a user does against a real HTTP server on 127.0.0.1 that is slow,
fails every batch, or never answers. The answer, the exit code and the session are those of an
untraced run; the exit waits a bounded time (a generous subprocess timeout holds the test, never a
timing assertion).
"""

import itertools
import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.integration.conftest import DECODE
from tests.integration.observability.conftest import collector_module

pytestmark = pytest.mark.integration

STEPS = [
    {"tool_calls": [{"name": "glob", "args": {"pattern": "*.txt"}}]},
    {"tool_calls": [{"name": "read", "args": {"path": "a.txt"}}]},
    {"tool_calls": [{"name": "glob", "args": {"pattern": "*.md"}}]},
    {"text": "Read it."},
]


def run_traced(project: Path, url: str) -> subprocess.CompletedProcess[str]:
    (project / "a.txt").write_text("alpha\n")
    script = project.parent / "turns.json"
    script.write_text(json.dumps(STEPS), encoding="utf-8")
    env = {**os.environ, "OPIK_URL_OVERRIDE": url}
    return subprocess.run(
        [DECODE, "run", "--model", f"script:{script}", "read a"],
        cwd=project, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def tracing_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "tracing" in line]


def test_spans_arrive_in_the_order_the_turn_took_them(project: Path, collector: Any) -> None:
    done = run_traced(project, collector.url)

    assert done.returncode == 0, done.stderr
    assert collector.wait_for(traces=1, spans=7), collector.paths()
    spans = sorted(collector.spans(), key=lambda span: span["start_time"])
    assert [span["name"] for span in spans] == [
        "model request", "glob", "model request", "read", "model request", "glob", "model request",
    ]  # fmt: skip
    assert [span["input"]["request"] for span in spans if span["type"] == "llm"] == [1, 2, 3, 4]
    assert all(span["end_time"] <= later["start_time"] for span, later in itertools.pairwise(spans))
    (trace,) = collector.traces()
    assert trace["output"] == {"answer": "Read it."}
    assert tracing_lines(done.stderr) == []


@pytest.mark.parametrize("sick", [{"delay_s": 3.0}, {"status": 500}], ids=["slow", "failing"])
def test_a_sick_collector_leaves_the_answer_and_exit_code_alone(
    project: Path, tmp_path: Path, sick: dict[str, Any]
) -> None:
    with collector_module().Collector(**sick) as collector:
        done = run_traced(project, collector.url)
        assert collector.wait_for(traces=1, spans=7, timeout_s=30), collector.paths()  # it was sent, all of it

    assert done.returncode == 0, done.stderr
    assert done.stdout == "Read it.\n"
    assert "session" in done.stderr
    # At most one warning line: the failure, or the silence when no answer came back before the exit.
    warnings = tracing_lines(done.stderr)
    silence = "has not answered; 8 trace item(s) sent unconfirmed"
    assert len(warnings) <= 1, done.stderr
    assert all(silence in line or ("HTTP 500" in line and "delay_s" not in sick) for line in warnings)
    if "status" in sick:
        assert warnings, done.stderr  # a failing server is never passed over in silence


def test_a_collector_that_never_answers_does_not_hold_the_exit(project: Path) -> None:
    with collector_module().Collector(delay_s=None) as mute:
        done = run_traced(project, mute.url)  # the timeout (60 s) is what would fail, were the exit unbounded
        assert mute.wait_for(traces=1, spans=7, timeout_s=30), mute.paths()  # it saw every batch

    assert done.returncode == 0, done.stderr
    assert done.stdout == "Read it.\n"
    (warning,) = tracing_lines(done.stderr)
    assert "has not answered" in warning
