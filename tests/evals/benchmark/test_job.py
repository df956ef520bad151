"""A job: trials of several tasks in parallel, recorded in evals/results/JOB/; the benchmark command."""

import json
import shutil
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from evals.benchmark.commands import benchmark
from evals.benchmark.job import job_name, run_job
from evals.benchmark.tasks import load_tasks
from tests.evals.benchmark.conftest import FIXTURE_TASKS, scripted

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (apt install bubblewrap)"),
]

TYPES = {
    "task": str, "trial": int, "difficulty": str, "category": str, "model": str, "reward": float,
    "passed": bool, "exit_code": (int, type(None)), "requests": int, "input_tokens": int,
    "output_tokens": int, "cost_usd": (float, type(None)), "wall_s": float, "error": (str, type(None)),
    "session_id": (str, type(None)),
}  # fmt: skip


def test_a_job_of_two_tasks_by_two_trials_records_every_trial(tmp_path: Path) -> None:
    scripts = tmp_path / "scripts"
    fix = [
        {"tool_calls": [{"name": "bash", "args": {"command": "sed -i 's/a - b/a + b/' calc.py"}}]},
        {"text": "Done."},
    ]
    scripted(scripts / "fix-add.json", fix)
    scripted(scripts / "write-greeting.json", [{"text": "I would rather not."}])

    job_dir = run_job(
        load_tasks(FIXTURE_TASKS),
        model=f"script:{scripts}/{{task}}.json",
        trials=2,
        threads=2,
        sandbox="bwrap",
        job="two-by-two",
        results_root=tmp_path / "results",
    )

    assert job_dir == tmp_path / "results" / "two-by-two"
    records = [json.loads(line) for line in (job_dir / "trials.jsonl").read_text().splitlines()]
    assert len(records) == 4
    for record in records:
        assert set(record) == set(TYPES)
        for key, kind in TYPES.items():
            assert isinstance(record[key], kind), (key, record[key])
    outcome = sorted((r["task"], r["trial"], r["passed"], r["model"].rsplit("/", 1)[-1]) for r in records)
    assert outcome == [
        ("fix-add", 1, True, "fix-add.json"),
        ("fix-add", 2, True, "fix-add.json"),
        ("write-greeting", 1, False, "write-greeting.json"),
        ("write-greeting", 2, False, "write-greeting.json"),
    ]
    meta = json.loads((job_dir / "job.json").read_text())
    assert (meta["job"], meta["sandbox"], meta["trials"], meta["tasks"]) == (
        "two-by-two",
        "bwrap",
        2,
        ["fix-add", "write-greeting"],
    )
    assert meta["model"] == f"script:{scripts}/{{task}}.json"
    started, finished = datetime.fromisoformat(meta["started_at"]), datetime.fromisoformat(meta["finished_at"])
    assert started.utcoffset() is not None
    assert started <= finished
    assert (job_dir / "fix-add-2" / "stdout.json").exists()
    assert "fix-add" in (job_dir / "report.md").read_text()  # evals.report wrote the job's report


def test_the_default_job_name_is_a_utc_timestamp_and_the_model() -> None:
    now = datetime.fromisoformat("2026-12-02T03:04:05+00:00")

    assert job_name("google-gla:gemini-flash-latest", now) == "20261202T030405Z-google-gla-gemini-flash-latest"
    assert job_name("script:evals/smoke/{task}.json", now) == "20261202T030405Z-script-smoke"
    assert job_name("script:/tmp/fix.json", now) == "20261202T030405Z-script-fix"


def test_benchmark_rejects_an_unknown_task_by_name() -> None:
    result = CliRunner().invoke(benchmark, ["--tasks", "no-such-task", "--model", "script:x.json", "--sandbox", "none"])

    assert result.exit_code == 2
    assert "unknown task(s): no-such-task" in result.output


def test_benchmark_without_a_docker_engine_says_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no docker program at all: the same as no engine
    monkeypatch.chdir(tmp_path)

    result = CliRunner().invoke(benchmark, ["--sandbox", "docker", "--model", "script:x.json"])

    assert result.exit_code == 2
    assert "error: --sandbox docker: the `docker` CLI is not on PATH" in result.output
