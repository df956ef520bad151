"""Reference solution for lesson 21's exercise (and a wrong one the check rejects)."""


def best_attempt(results: list[dict]) -> int | None:
    def shipped(result: dict) -> bool:
        return result["exit_code"] == 0 and (result.get("handback") or {}).get("outcome") == "shipped"

    def size(number: int) -> tuple[int, int]:
        result = results[number - 1]
        return result["diff"]["insertions"] + result["diff"]["deletions"], result["usage"]["total_tokens"]

    candidates = [number for number, result in enumerate(results, start=1) if shipped(result)]
    return min(candidates, key=size) if candidates else None


def wrong_best_attempt(results: list[dict]) -> int | None:
    """Picks the smallest diff whatever the exit code: a failed run's half-done work wins."""
    sizes = [result["diff"]["insertions"] + result["diff"]["deletions"] for result in results]
    return sizes.index(min(sizes)) + 1 if results else None
