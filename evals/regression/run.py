"""Running a regression case: a real `decode run` in a fresh workspace, then the metrics.

    result = run_case(case, "script:evals/smoke/{case}-{turn}.json")
    result.passed, [(s.name, s.value) for s in result.scores]

The workspace is a temp dir holding the case's `[files]`; `decode run --output-format json` runs
in it as a subprocess (its session log lands in the workspace's `.decode/sessions/`), then once
more with `--resume` per follow-up. The model string may name `{case}` (the case id) and `{turn}`
(0, 1, …): a scripted model then gets a script per case and turn, since each process replays its
script from the start.

As a benchmark trial does, each run is sandboxed in bubblewrap (where it is installed) with only a
whitelisted environment: the model's own key, nothing else of the caller's.
"""

import json
import logging
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from evals.benchmark.trial import agent_environment
from evals.regression.cases import Case
from evals.regression.metrics import Evidence, Score, Snapshot, score

logger = logging.getLogger(__name__)

TURN_TIMEOUT_S = 600
RESULTS_DIR = Path(__file__).resolve().parents[1] / "results"


@dataclass
class CaseResult:
    case: str
    tier: int
    passed: bool
    scores: list[Score]
    exit_codes: list[int | None]
    session_id: str | None
    log: str | None
    answer: str = ""
    error: str | None = None
    wall_s: float = 0.0
    diff: str = field(default="", repr=False)

    @property
    def values(self) -> dict[str, float]:
        """Each metric's value by name: `result.values["read_before_edit"]`."""
        return {s.name: s.value for s in self.scores}

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "scores": [asdict(s) for s in self.scores]}


def snapshot(root: Path) -> Snapshot:
    """Every file under `root` but decode's own `.decode/`, as bytes."""
    files = {}
    for path in sorted(root.rglob("*")):
        relative = path.relative_to(root)
        if path.is_file() and relative.parts[0] != ".decode":
            files[relative.as_posix()] = path.read_bytes()
    return files


def decode_run(workspace: Path, case: Case, model: str, prompt: str, resume: str | None) -> dict[str, Any]:
    """One `decode run` in `workspace`; its JSON result object (or one describing the failure)."""
    command = [sys.executable, "-m", "decode", "run", "--output-format", "json", "--quiet"]
    command += ["--permission-mode", case.permission_mode, "--max-requests", str(case.max_requests)]
    command += ["--model", model, "--cwd", str(workspace), "--sandbox", sandbox_mode()]
    if case.disallowed_tools:
        command += ["--disallowed-tools", case.disallowed_tools]
    if resume:
        command += ["--resume", resume]
    try:
        with tempfile.TemporaryDirectory(prefix="decode-regression-home-") as home:
            env = agent_environment(model, Path(home))
            if case.context_window:
                env["DECODE_CONTEXT_WINDOW"] = str(case.context_window)
            done = subprocess.run(
                [*command, "--", prompt],
                cwd=workspace,
                env=env,
                capture_output=True,
                text=True,
                timeout=TURN_TIMEOUT_S,
                check=False,
            )
    except subprocess.TimeoutExpired:
        return {"exit_code": None, "error": f"timed out after {TURN_TIMEOUT_S} s", "session_id": resume}
    try:
        result = json.loads(done.stdout)
    except json.JSONDecodeError:
        last = done.stderr.strip().splitlines()[-1:] or ["no output"]
        return {"exit_code": done.returncode, "error": last[0], "session_id": resume}
    result["exit_code"] = done.returncode
    return result


def sandbox_mode() -> str:
    """`bwrap` where bubblewrap is installed, else `none` (with a warning: commands run on the host)."""
    if shutil.which("bwrap") is not None:
        return "bwrap"
    logger.warning("bubblewrap is not installed: regression cases run their commands unsandboxed")
    return "none"


def session_log(workspace: Path, session_id: str) -> Path | None:
    return next((workspace / ".decode" / "sessions").glob(f"*_{session_id}.jsonl"), None)


def unified_diff(before: Snapshot, after: Snapshot) -> str:
    """The workspace's change as a unified diff (for the judge and the summary)."""
    import difflib

    out: list[str] = []
    for path in sorted(set(before) | set(after)):
        if before.get(path) != after.get(path):
            old = (before.get(path) or b"").decode("utf-8", "replace").splitlines()
            new = (after.get(path) or b"").decode("utf-8", "replace").splitlines()
            out += difflib.unified_diff(old, new, f"a/{path}", f"b/{path}", lineterm="")
    return "\n".join(out)


def run_case(case: Case, model: str, workspace: Path | None = None) -> CaseResult:
    """Run `case` on `model` (in `workspace`, or a temp dir kept until scoring is done)."""
    with tempfile.TemporaryDirectory(prefix=f"decode-regression-{case.id}-") as temp:
        root = workspace or Path(temp)
        for relative, text in case.files.items():
            path = root / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        before = snapshot(root)
        started = time.monotonic()
        session_id, exit_codes, error = None, [], None
        for turn, prompt in enumerate([case.prompt, *case.followups]):
            turn_model = model.replace("{case}", case.id).replace("{turn}", str(turn))
            result = decode_run(root, case, turn_model, prompt, session_id)
            exit_codes.append(result.get("exit_code"))
            session_id = result.get("session_id") or session_id
            error = result.get("error") or error
            logger.info("%s turn %d: exit %s", case.id, turn, result.get("exit_code"))
            if session_id is None:
                break
        wall_s = time.monotonic() - started
        after = snapshot(root)
        log = session_log(root, session_id) if session_id else None
        if log is None:
            return CaseResult(case.id, case.tier, False, [], exit_codes, session_id, None, error=error or "no log")
        evidence = Evidence.from_log(log, before, after)
        scores = score(evidence, case.metrics)
        passed = all(s.value >= case.threshold(s.name) for s in scores)
        kept = str(log) if workspace else None  # a temp workspace's log goes with it
        return CaseResult(
            case.id,
            case.tier,
            passed,
            scores,
            exit_codes,
            session_id,
            kept,
            answer=evidence.final_answer(),
            error=error,
            wall_s=round(wall_s, 2),
            diff=unified_diff(before, after),
        )


def suite_score(results: list[CaseResult]) -> float:
    """Mean metric value over the tool-discipline (tier 1) cases: the suite passes at ≥ 0.8."""
    values = [s.value for r in results if r.tier == 1 for s in r.scores] or [0.0]
    return sum(values) / len(values)


def write_results(results: list[CaseResult], model: str, directory: Path | None = None) -> Path:
    """`evals/results/regression-<UTC time>/results.jsonl` and `summary.md`; returns the folder."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    out = directory or RESULTS_DIR / f"regression-{stamp}"
    out.mkdir(parents=True, exist_ok=True)
    with (out / "results.jsonl").open("w", encoding="utf-8") as file:
        for result in results:
            file.write(json.dumps({"model": model, **result.to_json()}) + "\n")
    passed = sum(r.passed for r in results)
    lines = [
        f"# Regression suite, {stamp}",
        "",
        f"Model `{model}`: {passed}/{len(results)} cases passed; tier-1 mean {suite_score(results):.2f} (bar 0.80).",
        "",
        "| case | tier | passed | metrics |",
        "|---|---|---|---|",
    ]
    for r in results:
        metrics = ", ".join(f"{s.name} {s.value:.2f}" for s in r.scores) or (r.error or "")
        lines.append(f"| {r.case} | {r.tier} | {'yes' if r.passed else 'no'} | {metrics} |")
    (out / "summary.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out
