"""Reference solutions for lesson 20's exercise (and a wrong one the check rejects)."""

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
