"""pass@k against a brute-force count, and a job's aggregates from trial records."""

import itertools
import math

import pytest

from evals.metrics import errored, pass_at_k, summarize


def brute_force_pass_at_k(n: int, c: int, k: int) -> float:
    """The share of all k-subsets of n trials (c of them passing) that hold at least one pass."""
    trials = [True] * c + [False] * (n - c)
    draws = list(itertools.combinations(range(n), k))
    return sum(any(trials[i] for i in draw) for draw in draws) / len(draws)


@pytest.mark.parametrize("n", range(1, 8))
def test_pass_at_k_matches_brute_force_enumeration(n: int) -> None:
    for c in range(n + 1):
        for k in range(1, n + 1):
            assert pass_at_k(n, c, k) == pytest.approx(brute_force_pass_at_k(n, c, k), abs=1e-12), (n, c, k)


def test_pass_at_k_is_stable_for_large_n() -> None:
    # math.comb is exact: the product form must agree where naive floats would overflow.
    n, c, k = 2000, 37, 100
    exact = 1 - math.comb(n - c, k) / math.comb(n, k)
    assert pass_at_k(n, c, k) == pytest.approx(exact, rel=1e-9)


@pytest.mark.parametrize(("n", "c", "k"), [(3, 1, 4), (3, 1, 0), (3, 4, 1), (3, -1, 1)])
def test_pass_at_k_rejects_impossible_arguments(n: int, c: int, k: int) -> None:
    with pytest.raises(ValueError, match="must be between"):
        pass_at_k(n, c, k)


def record(task: str, trial: int, passed: bool, **fields: object) -> dict[str, object]:
    base: dict[str, object] = {
        "task": task,
        "trial": trial,
        "difficulty": "easy",
        "category": "git",
        "model": "script:x.json",
        "reward": 1.0 if passed else 0.0,
        "passed": passed,
        "exit_code": 0,
        "requests": 2,
        "input_tokens": 100,
        "output_tokens": 10,
        "cost_usd": None,
        "wall_s": 1.0,
        "error": None,
        "session_id": None,
    }
    return base | fields


def test_summarize_aggregates_per_task_difficulty_and_category() -> None:
    records = [
        record("a", 1, True, wall_s=4.0, cost_usd=0.5),
        record("a", 2, False, error="agent timed out", wall_s=10.0),
        record("b", 1, False, difficulty="hard", category="logs", requests=6, wall_s=2.0),
        record("b", 2, False, difficulty="hard", category="logs", requests=6, wall_s=3.0, cost_usd=0.25),
    ]
    s = summarize(records)
    assert (s.tasks["a"].n, s.tasks["a"].c, s.tasks["a"].errors) == (2, 1, ("agent timed out",))
    assert s.trials == 2
    assert s.pass_at_1 == pytest.approx((0.5 + 0.0) / 2)
    assert s.pass_at_k == pytest.approx((1.0 + 0.0) / 2)
    assert list(s.by_difficulty) == ["easy", "hard"]
    assert (s.by_difficulty["easy"].solved, s.by_difficulty["hard"].pass_at_1) == (1, 0.0)
    assert s.by_category["logs"].tasks == 1
    assert (s.requests_total, s.requests_mean) == (16, 4.0)
    assert (s.input_tokens, s.output_tokens) == (400, 40)
    assert s.cost_usd == pytest.approx(0.75)  # only the priced trials are summed
    assert (s.trial_count, s.tokens_mean, s.cost_mean) == (4, 110.0, pytest.approx(0.1875))
    assert s.wall_median_s == pytest.approx(3.5)


def test_summarize_has_no_cost_when_no_trial_was_priced() -> None:
    summary = summarize([record("a", 1, True), record("a", 2, True)])
    assert (summary.cost_usd, summary.cost_mean) == (None, None)


def test_summarize_rejects_an_empty_job() -> None:
    with pytest.raises(ValueError, match="no trials"):
        summarize([])


@pytest.mark.parametrize(
    ("exit_code", "error", "passed", "expected"),
    [
        (1, "model request failed: HTTP 401 from m", False, True),  # the model could not be used
        (2, "GEMINI_API_KEY is not set", False, True),
        (None, "runner error: OSError()", False, True),
        (0, "the verifier wrote no reward.txt", False, True),  # a broken task, not the agent's miss
        (0, None, False, False),  # a wrong answer
        (3, "request ceiling reached (50 requests)", False, False),
        (143, "agent timed out after 600 s", False, False),
        (0, None, True, False),
    ],
)
def test_a_trial_errored_only_when_decode_could_not_work_the_task(
    exit_code: int | None, error: str | None, passed: bool, expected: bool
) -> None:
    assert errored({"exit_code": exit_code, "error": error, "passed": passed}) is expected
