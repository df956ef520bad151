"""How a headless run's turn ends decides its exit code; a run keeps its state on itself, not in globals."""

import ast
import json
import signal
from pathlib import Path

import pytest

from decode.agent.failures import Failure
from decode.harness.runner import TurnEnded
from decode.processes.signals import SignalStop
from decode.runtime.exits import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, EXIT_REQUEST_LIMIT
from decode.runtime.formatted_run import FormattedRun
from decode.runtime.headless import HeadlessRun, exit_code
from decode.runtime.options import HeadlessOptions


@pytest.mark.parametrize(
    ("ended", "code"),
    [
        (TurnEnded("finished"), EXIT_OK),
        (TurnEnded("failed", "x", failure=Failure("x", "y")), EXIT_FAILED),
        (TurnEnded("failed", "x", failure=Failure("x", "y", at_ceiling=True)), EXIT_REQUEST_LIMIT),
    ],
)
def test_each_ending_has_its_exit_code(ended: TurnEnded, code: int) -> None:
    assert exit_code(ended) == code


def test_a_stopped_turn_exits_130_or_128_plus_the_signal(capsys: pytest.CaptureFixture[str]) -> None:
    run = HeadlessRun()
    assert run.stopped() == EXIT_INTERRUPTED
    assert run.stop_note() is None  # Ctrl-C: the user interrupted it
    run.stop = SignalStop()
    run.stop.signum = signal.SIGTERM
    assert run.stopped() == 128 + signal.SIGTERM
    assert run.stop_note() == "[decode was stopped (SIGTERM) before this turn finished.]"
    assert capsys.readouterr().err.splitlines() == ["decode: interrupted", "decode: stopped by SIGTERM"]


def test_two_runs_share_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    first, second = FormattedRun(HeadlessOptions(output_format="json")), FormattedRun(HeadlessOptions())
    first.progress.error("broken")
    assert second.progress.first_error is None
    assert first.finish(1) == 1
    assert second.finish(0) == 0
    assert first.finish(0) == 1  # once only: the first code is the run's
    assert json.loads(capsys.readouterr().out)["error"] == "broken"


def test_the_runtime_package_keeps_no_module_state() -> None:
    # What changes during a run lives on a `HeadlessRun`: no function of decode/runtime/ rebinds a global.
    import decode.runtime

    for path in Path(decode.runtime.__file__).parent.glob("*.py"):
        assert not [node for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.Global)], path.name
