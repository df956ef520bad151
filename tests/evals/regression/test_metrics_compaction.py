"""compaction_survived: two turns (`decode run`, then `--resume`) in a window small enough to compact."""

from collections.abc import Callable

import pytest

from evals.regression.metrics import Evidence
from evals.regression.run import CaseResult

RunCase = Callable[..., tuple[CaseResult, Evidence]]

pytestmark = pytest.mark.integration

FIRST_TURN = [
    {"tool_calls": [{"name": "read", "args": {"path": "notes.md"}}]},
    {"text": "notes.md describes a small HTTP API with /health and /items, deployed as one container."},
]
SUMMARY = {
    "text": "## Goal\nA service on port 8431.\n## Constraints\n## Progress\nRead notes.md.\n"
    "## Decisions\n## Next steps\nWrite config.toml.\n## Files touched\nnotes.md"
}


def second_turn(port: int) -> list[dict]:
    write = {"name": "write", "args": {"path": "config.toml", "content": f"[server]\nport = {port}\n"}}
    return [SUMMARY, {"tool_calls": [write]}, {"text": "Wrote config.toml."}]


def test_the_fact_is_used_after_compaction(run: RunCase) -> None:
    result, evidence = run("compaction-survival", FIRST_TURN, second_turn(8431))
    assert evidence.compacted
    assert result.values == {"compaction_survived": 1.0, "no_invented_files": 1.0}
    assert result.exit_codes == [0, 0]


def test_a_forgotten_fact_fails(run: RunCase) -> None:
    result, evidence = run("compaction-survival", FIRST_TURN, second_turn(8080))
    assert evidence.compacted
    assert result.values["compaction_survived"] == 0.0
    assert evidence.after["config.toml"] == b"[server]\nport = 8080\n"
