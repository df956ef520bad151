"""Benchmark metrics: pass@k and the aggregates of one job's trials.

    pass_at_k(n=3, c=1, k=1)               # 0.333…
    summary = summarize(records)           # records: the dicts of a job's trials.jsonl
    summary.pass_at_1, summary.by_difficulty["easy"].pass_at_1

pass@k is the chance that at least one of k trials drawn from the n run passes. With c of n
passing, the unbiased estimator (Chen et al. 2021, "Evaluating Large Language Models Trained on
Code") is 1 - C(n-c, k) / C(n, k); it is computed as a running product so that big n never
overflows or loses precision.
"""

import statistics
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

CEILING_EXIT = 3
"""decode run's exit code for an agent stopped at its request ceiling: its failure, not an error."""


def errored(trial: Mapping[str, Any]) -> bool:
    """A trial that errored rather than failed: it did not pass, and its error is not the agent's
    (the model failed, a configuration or runner error, a verifier that wrote no reward). A
    timeout, the request ceiling or a wrong answer (no error) is the agent's failure."""
    error = trial.get("error")
    if trial.get("passed") or not error or str(error).startswith("agent timed out"):
        return False
    return trial.get("exit_code") != CEILING_EXIT


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased pass@k of a task run `n` times with `c` passes (ValueError if k > n)."""
    if not 0 <= c <= n:
        raise ValueError(f"passes c={c} must be between 0 and trials n={n}")
    if not 1 <= k <= n:
        raise ValueError(f"k={k} must be between 1 and the number of trials n={n}")
    if n - c < k:
        return 1.0  # every draw of k trials holds a pass
    # C(n-c, k) / C(n, k) = prod_{i=n-c+1}^{n} (1 - k/i)
    miss = 1.0
    for i in range(n - c + 1, n + 1):
        miss *= 1.0 - k / i
    return 1.0 - miss


@dataclass(frozen=True)
class TaskResult:
    """One task's trials: n run, c passed, and its pass@1 / pass@k (k = n)."""

    task: str
    difficulty: str
    category: str
    n: int
    c: int
    errors: tuple[str, ...]

    @property
    def pass_at_1(self) -> float:
        return pass_at_k(self.n, self.c, 1)

    def pass_at(self, k: int) -> float:
        """pass@k of this task's trials."""
        return pass_at_k(self.n, self.c, k)


@dataclass(frozen=True)
class Group:
    """The mean pass@1 / pass@k of a set of tasks (a difficulty, a category, or all)."""

    tasks: int
    solved: int  # tasks with at least one passing trial
    pass_at_1: float
    pass_at_k: float


@dataclass(frozen=True)
class Summary:
    """Everything the report shows about one job."""

    tasks: dict[str, TaskResult]
    overall: Group
    by_difficulty: dict[str, Group]
    by_category: dict[str, Group]
    trials: int  # k: trials per task
    trial_count: int  # every trial of the job
    requests_total: int
    requests_mean: float
    input_tokens: int
    output_tokens: int
    cost_usd: float | None  # None: no trial was priced
    wall_median_s: float

    @property
    def pass_at_1(self) -> float:
        return self.overall.pass_at_1

    @property
    def pass_at_k(self) -> float:
        return self.overall.pass_at_k

    @property
    def tokens_mean(self) -> float:
        """Input plus output tokens per trial."""
        return (self.input_tokens + self.output_tokens) / self.trial_count

    @property
    def cost_mean(self) -> float | None:
        """Cost per trial (None when no trial was priced)."""
        return None if self.cost_usd is None else self.cost_usd / self.trial_count


def _group(results: Iterable[TaskResult], k: int) -> Group:
    rows = list(results)
    if not rows:
        return Group(tasks=0, solved=0, pass_at_1=0.0, pass_at_k=0.0)
    return Group(
        tasks=len(rows),
        solved=sum(1 for r in rows if r.c > 0),
        pass_at_1=statistics.fmean(r.pass_at_1 for r in rows),
        pass_at_k=statistics.fmean(r.pass_at(k) for r in rows),
    )


def summarize(records: Iterable[Mapping[str, Any]]) -> Summary:
    """Aggregate a job's trial records (trials.jsonl objects) into a `Summary`.

    pass@k uses k = the fewest trials any task has, so every task's number means the same.
    """
    rows = list(records)
    if not rows:
        raise ValueError("a job with no trials has nothing to summarize")
    per_task: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for row in rows:
        per_task[row["task"]].append(row)
    tasks = {
        name: TaskResult(
            task=name,
            difficulty=trials[0]["difficulty"],
            category=trials[0]["category"],
            n=len(trials),
            c=sum(1 for t in trials if t["passed"]),
            errors=tuple(t["error"] for t in sorted(trials, key=lambda t: t["trial"]) if t["error"]),
        )
        for name, trials in sorted(per_task.items())
    }
    k = min(r.n for r in tasks.values())
    costs = [row["cost_usd"] for row in rows if row["cost_usd"] is not None]
    by_difficulty: dict[str, list[TaskResult]] = defaultdict(list)
    by_category: dict[str, list[TaskResult]] = defaultdict(list)
    for result in tasks.values():
        by_difficulty[result.difficulty].append(result)
        by_category[result.category].append(result)
    return Summary(
        tasks=tasks,
        overall=_group(tasks.values(), k),
        by_difficulty={d: _group(rs, k) for d, rs in sorted(by_difficulty.items(), key=_difficulty_order)},
        by_category={c: _group(rs, k) for c, rs in sorted(by_category.items())},
        trials=k,
        trial_count=len(rows),
        requests_total=sum(row["requests"] for row in rows),
        requests_mean=statistics.fmean(row["requests"] for row in rows),
        input_tokens=sum(row["input_tokens"] for row in rows),
        output_tokens=sum(row["output_tokens"] for row in rows),
        cost_usd=sum(costs) if costs else None,
        wall_median_s=statistics.median(row["wall_s"] for row in rows),
    )


DIFFICULTIES = ("easy", "medium", "hard")


def _difficulty_order(item: tuple[str, object]) -> tuple[int, str]:
    name = item[0]
    return (DIFFICULTIES.index(name) if name in DIFFICULTIES else len(DIFFICULTIES), name)


def difficulty_names(summaries: Iterable[Summary]) -> list[str]:
    """The difficulties present in any of `summaries`, easy → medium → hard, then others."""
    names = {name for summary in summaries for name in summary.by_difficulty}
    return [name for name, _ in sorted(((n, None) for n in names), key=_difficulty_order)]
