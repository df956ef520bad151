"""`python -m evals smoke`: the whole benchmark pipeline offline, as `make eval-smoke` runs it.

A real job: two real tasks of evals/tasks, `decode run` subprocesses in bubblewrap on scripted
models, the tasks' verifiers and the report. One script solves its task, the other gives up.
"""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap (bwrap) is not installed"),
]

REPO = Path(__file__).parents[2]


def test_smoke_passes_one_task_of_two_and_writes_the_report(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "evals", "smoke", "--results-root", str(tmp_path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    (job_dir,) = tmp_path.iterdir()
    report = job_dir / "report.md"
    assert f"report: {report}" in done.stdout
    records = {r["task"]: r for r in map(json.loads, (job_dir / "trials.jsonl").read_text().splitlines())}
    assert records["fix-off-by-one-pagination"]["passed"] is True
    assert records["csv-sales-summary"]["passed"] is False
    # The scripted fix really ran through decode's tools: the trial made 4 model requests.
    assert records["fix-off-by-one-pagination"]["requests"] == 4
    text = report.read_text(encoding="utf-8")
    assert "passes 1/2 tasks" in text
    assert "| csv-sales-summary | easy | data | ✗ 0/1 |" in text
    assert (job_dir / "chart.png").read_bytes()[:4] == b"\x89PNG"


def test_the_smoke_check_names_what_went_wrong(tmp_path: Path) -> None:
    # A recorded job where both tasks passed: the check must name the task and the verdict.
    from evals.report import write_report
    from evals.smoke import FAILED, SOLVED, check_job

    recorded = REPO / "tests" / "evals" / "fixtures" / "results" / "gemini-flash-0612"
    records = [json.loads(line) for line in (recorded / "trials.jsonl").read_text().splitlines()]
    both_pass = [next(r for r in records if r["task"] == task and r["passed"]) for task in (SOLVED, FAILED)]
    job = tmp_path / "job"
    job.mkdir()
    (job / "job.json").write_text((recorded / "job.json").read_text())
    (job / "trials.jsonl").write_text("".join(json.dumps(r | {"trial": 1}) + "\n" for r in both_pass))
    assert check_job(job, SOLVED, FAILED)[-1] == f"no report at {job / 'report.md'}"
    write_report([job], job)
    assert check_job(job, SOLVED, FAILED) == [
        "csv-sales-summary: expected fail, got reward 1.0",
        "the report's verdict is not 1/2 tasks passed",
    ]
