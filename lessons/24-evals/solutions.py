"""Reference solutions of lesson 24's exercises, and a plausible mistake each check rejects."""

import math
from pathlib import Path
from typing import Any


def pass_at_k(n: int, c: int, k: int) -> float:
    """One minus the chance that k trials drawn from the n, without replacement, all failed."""
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def wrong_pass_at_k(n: int, c: int, k: int) -> float:
    """The pass rate: right for k = 1, but it ignores that k tries get k chances."""
    return c / n


def read_reward(path: Path) -> float:
    """The one number in reward.txt when it is one, in [0, 1]; anything else is a failed trial."""
    try:
        reward = float(path.read_text(encoding="utf-8").strip())
    except (OSError, ValueError, UnicodeDecodeError):
        return 0.0
    return reward if 0.0 <= reward <= 1.0 else 0.0  # also false for nan


def wrong_read_reward(path: Path) -> float:
    """Handles a missing file, but a garbled one crashes the whole benchmark."""
    return float(path.read_text()) if path.exists() else 0.0


def edits_without_read(calls: list[tuple[str, dict[str, Any]]], existing: set[str]) -> list[str]:
    """Walk the calls in order, remembering what the agent has read; changing an unread existing file is blind."""
    read: set[str] = set()
    blind: list[str] = []
    for name, args in calls:
        path = args.get("path")
        if name == "read":
            read.add(path)
        elif name in ("edit", "write") and path in existing and path not in read and path not in blind:
            blind.append(path)
    return blind


def wrong_edits_without_read(calls: list[tuple[str, dict[str, Any]]], existing: set[str]) -> list[str]:
    """Asks whether the file was read at all, not whether it was read *before* the edit."""
    read = {args.get("path") for name, args in calls if name == "read"}
    changed = [args["path"] for name, args in calls if name in ("edit", "write") and args["path"] in existing]
    return list(dict.fromkeys(path for path in changed if path not in read))
