"""The benchmark report: golden Markdown from recorded jobs, a deterministic chart, clear errors.

The recorded jobs (19 tasks, 3 trials, two models) are under tests/evals/fixtures/results/. After
a deliberate change to the report, regenerate the golden file and review its diff:

    UPDATE_GOLDEN=1 .venv/bin/pytest tests/evals/test_report.py
"""

import json
import os
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from evals.chart import DPI, HEIGHT_IN, WIDTH_IN
from evals.report import ResultsError, load_job, write_report

HERE = Path(__file__).parent
JOBS = [HERE / "fixtures" / "results" / "gemini-flash-0612", HERE / "fixtures" / "results" / "gpt-5-mini-0612"]
GOLDEN = HERE / "golden" / "report.md"
REPO = HERE.parents[1]


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's signature and IHDR chunk (fails on anything else)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


@pytest.fixture(scope="module")
def report_text(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The report of the two recorded jobs, written once for the tests that read it."""
    return write_report(JOBS, tmp_path_factory.mktemp("report")).read_text(encoding="utf-8")


def test_report_matches_the_golden_file(report_text: str) -> None:
    text = report_text
    if os.environ.get("UPDATE_GOLDEN"):
        GOLDEN.write_text(text, encoding="utf-8")
    assert text == GOLDEN.read_text(encoding="utf-8"), "report changed: UPDATE_GOLDEN=1 to accept (see docstring)"


def test_report_opens_with_the_verdict_and_right_aligns_numbers(report_text: str) -> None:
    lines = report_text.splitlines()
    assert lines[2].startswith("**gemini-flash-0612** (`google-gla:gemini-flash-latest`) passes 18/19 tasks")
    assert "**gpt-5-mini-0612** 16/19" in lines[2]
    # The per-task table: a column per job with passing trials out of 3.
    assert "| fix-flaky-timezone-test | medium | debugging | ✗ 0/3 | ✓ 1/3 |" in lines
    assert "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |" in lines
    # Unpriced trials show n/a, not $0.00.
    assert any(line.startswith("| gpt-5-mini-0612 |") and "| n/a |" in line for line in lines)
    # A trial decode could not work (the model failed) is an error, apart from the agent's failures.
    assert "### gemini-flash-0612: 17 of 57 trials failed, 1 errored" in lines
    cause = "model request failed: 503 Service Unavailable"
    assert f"- `split-module-refactor` trial 1 (exit 1): error, not a failure: {cause}" in lines


def test_chart_is_a_png_of_the_set_size_and_deterministic(tmp_path: Path) -> None:
    write_report(JOBS, tmp_path / "one")
    write_report(JOBS, tmp_path / "two")
    chart = tmp_path / "one" / "chart.png"
    assert png_size(chart) == (int(WIDTH_IN * DPI), int(HEIGHT_IN * DPI))
    assert chart.read_bytes() == (tmp_path / "two" / "chart.png").read_bytes()
    write_report(JOBS[:1], tmp_path / "three")
    assert (tmp_path / "three" / "chart.png").read_bytes() != chart.read_bytes(), "the chart must show the data"


def broken_job(tmp_path: Path, line: str) -> Path:
    job = tmp_path / "job"
    shutil.copytree(JOBS[0], job)
    records = (job / "trials.jsonl").read_text(encoding="utf-8").splitlines()
    records[2] = line
    (job / "trials.jsonl").write_text("\n".join(records) + "\n", encoding="utf-8")
    return job


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"task": "a"}', "missing difficulty, category, model, trial, requests, .*, cost_usd$"),
        ("[1, 2]", "expected a JSON object"),
    ],
)
def test_a_bad_trial_line_is_an_error_naming_its_line(tmp_path: Path, line: str, message: str) -> None:
    with pytest.raises(ResultsError, match=rf"trials\.jsonl:3: {message}"):
        load_job(broken_job(tmp_path, line))


def test_a_wrongly_typed_field_is_an_error(tmp_path: Path) -> None:
    good = json.loads((JOBS[0] / "trials.jsonl").read_text(encoding="utf-8").splitlines()[0])
    with pytest.raises(ResultsError, match=r"trials\.jsonl:3: field 'requests' has the wrong type"):
        load_job(broken_job(tmp_path, json.dumps(good | {"requests": True})))


def run_cli(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "evals", "report", *map(str, args)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_cli_writes_the_report_and_prints_its_path(tmp_path: Path) -> None:
    done = run_cli(*JOBS, "--out", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(tmp_path / "out" / "report.md")
    assert (tmp_path / "out" / "report.md").read_text(encoding="utf-8") == GOLDEN.read_text(encoding="utf-8")
    assert png_size(tmp_path / "out" / "chart.png") == (800, 450)


def test_cli_names_the_bad_line_and_exits_1(tmp_path: Path) -> None:
    done = run_cli(broken_job(tmp_path, "{not json"), "--out", tmp_path / "out")
    assert done.returncode == 1
    assert "trials.jsonl:3: not valid JSON" in done.stderr
    assert not (tmp_path / "out" / "report.md").exists()


def test_cli_puts_a_single_jobs_report_in_its_folder(tmp_path: Path) -> None:
    job = tmp_path / "job"
    shutil.copytree(JOBS[1], job)
    done = run_cli(job)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == str(job / "report.md")
    text = (job / "report.md").read_text(encoding="utf-8")
    assert text.splitlines()[2] == (
        "**gpt-5-mini-0612** (`openai:gpt-5-mini`) passes 16/19 tasks (pass@1 0.49, pass@3 0.84)"
        " — a task passes when at least one of its 3 trials does."
    )
