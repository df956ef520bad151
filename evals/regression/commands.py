"""`python -m evals regression|judge|mine`: the behaviour regression suite's commands.

Exit codes: 0 the suite passed (or was skipped: no model key); 1 it failed; 2 bad input.
"""

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from evals.regression.cases import Case, CaseError, load_cases

if TYPE_CHECKING:
    from evals.regression.run import CaseResult

CASES_OPTION = click.option("--cases", "case_ids", default="", help="Comma-separated case ids (default: all).")
MODEL_OPTION = click.option(
    "--model", "-m", default=None, help="Model string (default: DECODE_MODEL); may name {case} and {turn}."
)


# The setting each provider cannot run without, and its variable: checked here without importing
# the model gateway (and pydantic-ai with it), so that a keyless skip costs nothing.
REQUIRED = {
    "google-gla": ("gemini_api_key", "GEMINI_API_KEY"),
    "openrouter": ("openrouter_api_key", "OPENROUTER_API_KEY"),
    "modal": ("modal_llm_url", "DECODE_MODAL_LLM_URL"),
    "openai-compatible": ("openai_base_url", "OPENAI_BASE_URL"),
}


def _model_or_skip(model: str | None, count: int) -> str | None:
    """The model to run, or None after printing the one skip line when it has no key."""
    from decode.config.loading import ConfigError, load_settings

    try:
        settings = load_settings()
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
    spec = model or settings.model
    provider = spec.partition(":")[0]
    if provider in REQUIRED:
        attribute, variable = REQUIRED[provider]
        if getattr(settings, attribute) is None:
            click.echo(
                f"skipped: no model key ({variable} is not set); pass --model or set a key to run the {count} cases"
            )
            return None
    elif provider not in ("script", "test"):
        from decode.models.errors import ModelConfigError
        from decode.models.gateway import split_model_string

        try:
            split_model_string(spec)  # names the providers there are
        except ModelConfigError as exc:
            raise click.UsageError(str(exc)) from None
    return spec


def _cases(case_ids: str) -> list[Case]:
    try:
        return load_cases(ids=[c for c in case_ids.split(",") if c.strip()])
    except CaseError as exc:
        raise click.UsageError(str(exc)) from None


def _run_all(cases: list[Case], model: str) -> "list[CaseResult]":
    from evals.regression.run import run_case

    results = []
    for number, case in enumerate(cases, 1):
        click.echo(f"[{number}/{len(cases)}] {case.id} …", err=True)
        results.append(run_case(case, model))
    return results


@click.command()
@MODEL_OPTION
@CASES_OPTION
@click.option("--out", type=click.Path(path_type=Path), default=None, help="Results folder (default: evals/results/…).")
def regression(model: str | None, case_ids: str, out: Path | None) -> None:
    """Run the regression cases on a model and score them with the deterministic metrics."""
    from rich.console import Console
    from rich.table import Table

    from evals.regression.run import suite_score, write_results

    cases = _cases(case_ids)
    if (spec := _model_or_skip(model, len(cases))) is None:
        return
    results = _run_all(cases, spec)
    table = Table(title=f"regression · {spec}")
    for column in ("case", "tier", "passed", "metrics"):
        table.add_column(column)
    for r in results:
        metrics = ", ".join(f"{s.name} {s.value:.2f}" for s in r.scores) or (r.error or "no log")
        table.add_row(r.case, str(r.tier), "yes" if r.passed else "[red]no[/red]", metrics)
    Console().print(table)
    out = write_results(results, spec, out)
    mean = suite_score(results)
    click.echo(f"cases: {sum(r.passed for r in results)}/{len(results)} passed; tier-1 mean {mean:.2f} (bar 0.80)")
    click.echo(f"results: {out}")
    if any(r.tier == 1 for r in results) and mean < 0.8:
        sys.exit(1)


@click.command()
@MODEL_OPTION
@click.option("--judge-model", default=None, help="The judge's model (default: --model).")
@CASES_OPTION
def judge(model: str | None, judge_model: str | None, case_ids: str) -> None:
    """Run the cases, then ask an LLM judge whether each case's assertion holds."""
    from decode.config.loading import load_settings
    from evals.regression.judge import PASS_BAR, transcript
    from evals.regression.judge import judge as ask
    from evals.regression.metrics import Evidence

    cases = _cases(case_ids)
    if (spec := _model_or_skip(model, len(cases))) is None:
        return
    judge_spec = _model_or_skip(judge_model, len(cases)) if judge_model else spec
    if judge_spec is None:
        return
    import tempfile

    from evals.regression.run import run_case

    passed = 0
    for case in cases:
        with tempfile.TemporaryDirectory(prefix=f"decode-judge-{case.id}-") as workspace:
            result = run_case(case, spec, workspace=Path(workspace))
            evidence = Evidence.from_log(Path(result.log)) if result.log else Evidence([])
            text = transcript(case, evidence, result.diff)
        verdict = ask(case.assertion, text, _judge_model(judge_spec, case.id), load_settings())
        passed += verdict.passed
        click.echo(f"{case.id}: {'pass' if verdict.passed else 'FAIL'} — {verdict.reason}")
    share = passed / len(cases) if cases else 0.0
    click.echo(f"judge: {passed}/{len(cases)} assertions hold ({share:.2f}, bar {PASS_BAR:.2f})")
    if share < PASS_BAR:
        sys.exit(1)


def _judge_model(spec: str, case_id: str) -> str:
    return spec.replace("{case}", case_id).replace("{turn}", "judge")


@click.command()
@click.argument("session_log", type=click.Path(path_type=Path))
@click.option("--out", type=click.Path(path_type=Path), default=None, help="Write the case here (default: stdout).")
@click.option("--id", "case_id", default=None, help="The new case's id (default: mined-<session id>).")
def mine(session_log: Path, out: Path | None, case_id: str | None) -> None:
    """Turn a real session log into a new regression case (TOML), to edit and keep."""
    from evals.regression.metrics import LogError
    from evals.regression.mine import mine_case

    try:
        text = mine_case(session_log, case_id)
    except LogError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    if out is None:
        click.echo(text, nl=False)
        return
    out.write_text(text, encoding="utf-8")
    click.echo(f"wrote {out}")
