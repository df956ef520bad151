"""N attempts at one task, in parallel, and the rows of the table that compares them.

Several attempts at the same task differ (the model samples): running N at once and comparing
what each did (exit code, requests, tokens, cost, diff size, branch) is how you pick the best
one, and Modal is how N runs fit in the time of one.
"""

from collections.abc import Sequence
from typing import Any

from decode.remote.runners import Runner
from decode.remote.task import RunOptions

COLUMNS = ("attempt", "exit code", "requests", "tokens", "cost", "diff size", "branch")


def run_attempts(runner: Runner, n: int, task: str, repo: str, options: RunOptions) -> Sequence[dict[str, Any]]:
    """N runs of `task` on `repo` at once; their result objects, attempt 1 first."""
    if n < 1:
        raise ValueError("the number of attempts must be at least 1")
    return runner.fan_out(n, task, repo, options)


def row(number: int, result: dict[str, Any]) -> tuple[str, ...]:
    """One attempt as the table's cells (`-` where the run said nothing)."""
    usage = result.get("usage") or {}
    cost = result.get("cost_usd")
    diff = result.get("diff") or {}
    handback = result.get("handback") or {}
    shipped = handback.get("outcome") == "shipped"  # "kept": the push failed, the branch is not in the repo
    size = f"{diff.get('files', 0)} files +{diff.get('insertions', 0)} -{diff.get('deletions', 0)}"
    return (
        str(number),
        str(result.get("exit_code", "-")),
        str(usage.get("requests", result.get("num_requests", "-"))),
        str(usage.get("total_tokens", "-")),
        f"${cost:.4f}" if isinstance(cost, int | float) else "-",
        size,
        handback.get("branch", "-") if shipped else "-",
    )
