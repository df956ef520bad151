"""Before any trial, the benchmark asks the model for a word: a missing key or a refused model is
exit 2 with decode's own error, not a job whose every trial scores 0 (pass@1 0.00, exit 0)."""

from pathlib import Path

import pytest
from click.testing import CliRunner

from evals.benchmark.commands import benchmark
from tests.integration.providers.fake_servers import Fail, OpenAIServer, Turn

pytestmark = pytest.mark.integration

TASK = "fix-off-by-one-pagination"


def run_benchmark(model: str, results: Path) -> tuple[int, str]:
    options = ["--model", model, "--sandbox", "none", "--tasks", TASK, "--results-root", str(results)]
    result = CliRunner().invoke(benchmark, options)
    return result.exit_code, result.output


def test_no_key_exits_2_before_any_trial(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here; the suite already removed the developer's keys

    code, output = run_benchmark("google-gla:gemini-test", tmp_path / "results")

    assert code == 2, output
    assert "error: the model cannot be used: GEMINI_API_KEY is not set" in output
    assert not (tmp_path / "results").exists()  # no job, no trial, no pass@1 0.00


def test_a_refused_model_exits_2_before_any_trial(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server = OpenAIServer()
    server.plan(Fail(401, message="invalid api key"), Turn(text="never reached"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("OPENAI_BASE_URL", f"{server.url}/v1")
    monkeypatch.setenv("OPENAI_API_KEY", "not-a-key")
    try:
        code, output = run_benchmark("openai-compatible:local-coder", tmp_path / "results")
    finally:
        server.close()

    assert code == 2, output
    assert "error: the model cannot be used: model request failed: HTTP 401 from local-coder" in output
    assert len(server.requests) == 1
    assert not (tmp_path / "results").exists()
