"""Reference solutions for lesson 15's exercise (and a wrong one the check rejects)."""

import json


def tool_outcomes(stream: str) -> tuple[list[tuple[str, bool]], int]:
    events = [json.loads(line) for line in stream.splitlines() if line.strip()]
    if not events or events[-1]["type"] != "result":
        raise ValueError("the stream has no result line: the run did not finish")
    calls = {event["id"]: event["name"] for event in events if event["type"] == "tool_call"}
    ok = {event["id"]: not event["is_error"] for event in events if event["type"] == "tool_result"}
    return [(name, ok.get(call_id, False)) for call_id, name in calls.items()], events[-1]["exit_code"]


def wrong_tool_outcomes(stream: str) -> tuple[list[tuple[str, bool]], int]:
    """Pairs results with calls by position: parallel calls finish in any order."""
    events = [json.loads(line) for line in stream.splitlines() if line.strip()]
    if not events or events[-1]["type"] != "result":
        raise ValueError("the stream has no result line")
    names = [event["name"] for event in events if event["type"] == "tool_call"]
    ok = [not event["is_error"] for event in events if event["type"] == "tool_result"]
    return list(zip(names, ok, strict=False)), events[-1]["exit_code"]


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
