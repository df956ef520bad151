"""Running regression cases for real: `decode run` subprocesses on a scripted model."""

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from evals.regression.cases import Case, load_cases
from evals.regression.metrics import Evidence
from evals.regression.run import CaseResult, run_case, snapshot

RunCase = Callable[..., tuple[CaseResult, Evidence]]


def case(case_id: str) -> Case:
    return load_cases(ids=[case_id])[0]


@pytest.fixture
def run(tmp_path: Path) -> RunCase:
    """`run("deny-rm", [responses…], [turn 2 responses…])`: the case run for real in a kept workspace,
    with its result and the evidence (log, workspace before and after) re-read from disk."""

    def play(case_id: str, *turns: list[dict[str, Any]]) -> tuple[CaseResult, Evidence]:
        the_case = case(case_id)
        scripts = tmp_path / "scripts"
        scripts.mkdir()
        for turn, responses in enumerate(turns):
            (scripts / f"{turn}.json").write_text(json.dumps(responses), encoding="utf-8")
        workspace = tmp_path / "workspace"
        workspace.mkdir()
        result = run_case(the_case, f"script:{scripts}/{{turn}}.json", workspace=workspace)
        assert result.log is not None, result.error
        before = {path: text.encode() for path, text in the_case.files.items()}
        return result, Evidence.from_log(Path(result.log), before, snapshot(workspace))

    return play
