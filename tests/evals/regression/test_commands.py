"""`python -m evals regression|judge|mine` as a user runs them: real subprocesses, scripted models."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from evals.regression.cases import load_case
from evals.regression.metrics import score
from evals.regression.records import Evidence
from tests.conftest import script

pytestmark = pytest.mark.integration

OLD, NEW = '    print("hi")', '    print("hello")'
CAREFUL = [
    {"tool_calls": [{"name": "read", "args": {"path": "app.py"}}]},
    {"tool_calls": [{"name": "edit", "args": {"path": "app.py", "old_string": OLD, "new_string": NEW}}]},
    {"text": "Changed the greeting at app.py:2."},
]


def evals(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "evals", *args], cwd=cwd, capture_output=True, text=True, timeout=300, check=False
    )


def test_without_a_key_both_suites_skip_in_one_line(tmp_path: Path) -> None:
    for command in (["regression"], ["judge"], ["regression", "--model", "google-gla:gemini-flash-latest"]):
        done = evals(*command, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == [
            "skipped: no model key (GEMINI_API_KEY is not set); pass --model or set a key to run the 15 cases"
        ]


def test_regression_runs_a_case_prints_the_table_and_writes_results(tmp_path: Path) -> None:
    model = script(tmp_path / "careful.json", CAREFUL)
    out = tmp_path / "results"
    done = evals("regression", "--model", model, "--cases", "read-before-edit", "--out", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "read-before-edit" in done.stdout
    assert "cases: 1/1 passed; tier-1 mean 1.00" in done.stdout
    [line] = (out / "results.jsonl").read_text().splitlines()
    result = json.loads(line)
    assert result["passed"] is True
    # the careful run satisfies every metric of the case (test_metrics_edits.py violates them)
    assert {s["name"]: s["value"] for s in result["scores"]} == {
        "read_before_edit": 1.0,
        "minimal_diff": 1.0,
        "no_invented_files": 1.0,
    }
    assert result["exit_codes"] == [0]
    assert result["answer"] == "Changed the greeting at app.py:2."
    assert "1/1 cases passed" in (out / "summary.md").read_text()


def test_the_judge_on_scripted_models_returns_its_verdicts(tmp_path: Path) -> None:
    model = script(tmp_path / "careful.json", CAREFUL)
    verdict = {"passed": True, "reason": "read app.py first, then changed line 2 only"}
    judge = script(tmp_path / "judge.json", [{"tool_calls": [{"name": "final_result", "args": verdict}]}])
    done = evals("judge", "--model", model, "--judge-model", judge, "--cases", "read-before-edit", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "read-before-edit: pass — read app.py first, then changed line 2 only" in done.stdout
    assert "judge: 1/1 assertions hold" in done.stdout


def test_a_scripted_judge_can_fail_a_run(tmp_path: Path) -> None:
    from decode.config.loading import load_settings
    from evals.regression.judge import judge

    failing = {"passed": False, "reason": "it never read app.py"}
    model = script(tmp_path / "judge.json", [{"tool_calls": [{"name": "final_result", "args": failing}]}])
    verdict = judge("The agent read app.py first.", "Tool calls:\n1. edit(path='app.py')", model, load_settings())
    assert verdict.passed is False
    assert verdict.reason == "it never read app.py"


def test_mine_turns_a_real_log_into_a_case_whose_metrics_hold_on_it(tmp_path: Path) -> None:
    workspace = tmp_path / "workspace"
    workspace.mkdir()
    (workspace / "app.py").write_text('def greet():\n    print("hi")\n')
    grep = {"tool_calls": [{"name": "grep", "args": {"pattern": "hello"}}]}
    model = script(tmp_path / "run.json", [*CAREFUL[:2], grep, CAREFUL[2]])
    run = subprocess.run(
        [sys.executable, "-m", "decode", "run", "-q", "--permission-mode", "bypass", "--model", model, "change hi"],
        cwd=workspace,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    [log] = (workspace / ".decode" / "sessions").glob("*.jsonl")

    done = evals("mine", str(log), "--out", str(tmp_path / "mined.toml"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    case = load_case(tmp_path / "mined.toml")
    assert case.prompt == "change hi"
    assert case.files == {"app.py": 'def greet():\n    print("hi")\n'}  # as the read showed it
    assert {spec["name"] for spec in case.metrics} == {"read_before_edit", "search_with_tools", "no_invented_files"}
    assert case.assertion.startswith("TODO")
    files = {path: text.encode() for path, text in case.files.items()}
    rescored = score(Evidence.from_log(log, files, files), case.metrics)
    assert all(s.value >= case.threshold(s.name) for s in rescored)


def test_mine_refuses_a_file_that_is_not_a_session_log(tmp_path: Path) -> None:
    (tmp_path / "notes.jsonl").write_text('{"hello": 1}\n')
    done = evals("mine", str(tmp_path / "notes.jsonl"), cwd=tmp_path)
    assert done.returncode == 2
    assert "not a decode session log" in done.stderr
