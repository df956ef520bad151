"""Reference solution of lesson 23's exercise, and a plausible mistake its check rejects."""

import json
from collections.abc import Callable
from typing import Any


def recorded_results(
    history: list[tuple[str, dict[str, Any], Any]], miss: object
) -> Callable[[str, dict[str, Any]], Any]:
    """Queue each call's results under a key of its name and arguments; each lookup takes the next."""
    queues: dict[str, list[Any]] = {}
    for name, args, result in history:
        queues.setdefault(json.dumps([name, args], sort_keys=True), []).append(result)

    def lookup(name: str, args: dict[str, Any]) -> Any:
        queue = queues.get(json.dumps([name, args], sort_keys=True))
        return queue.pop(0) if queue else miss

    return lookup


def wrong_recorded_results(
    history: list[tuple[str, dict[str, Any], Any]], miss: object
) -> Callable[[str, dict[str, Any]], Any]:
    """A cache: the same call always gets the last recorded result, so the replay never sees the test fail."""
    cache = {json.dumps([name, args], sort_keys=True): result for name, args, result in history}

    def lookup(name: str, args: dict[str, Any]) -> Any:
        return cache.get(json.dumps([name, args], sort_keys=True), miss)

    return lookup
