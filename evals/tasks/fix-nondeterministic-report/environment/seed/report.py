"""Weekly activity report from an events log (one JSON object per line).

Usage: python3 report.py events.jsonl > report.txt
The format and the order of everything in it are described in REPORT.md.
"""

import json
import sys
from collections import Counter, defaultdict


def load(path: str) -> list[dict]:
    """Return the events of a JSON-lines file; blank lines are skipped."""
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def by_team(events: list[dict]) -> tuple[dict[str, set], dict[str, Counter]]:
    """Return each team's members and its tag counts (a tag counts once per event)."""
    members: dict[str, set] = defaultdict(set)
    tags: dict[str, Counter] = defaultdict(Counter)
    for event in events:
        members[event["team"]].add(event["user"])
        for tag in set(event.get("tags", [])):
            tags[event["team"]][tag] += 1
    return members, tags


def top_tags(counts: Counter, n: int = 3) -> list[tuple[str, int]]:
    return counts.most_common(n)


def most_active(events: list[dict]) -> tuple[str, int]:
    per_user = Counter(event["user"] for event in events)
    best = max(set(per_user), key=per_user.get)
    return best, per_user[best]


def spot_check(users: set[str]) -> list[str]:
    """A stable sample of roughly one user in five, for the manual audit."""
    return [user for user in users if hash(user) % 5 == 0]


def render(events: list[dict]) -> str:
    members, tags = by_team(events)
    users = {event["user"] for event in events}
    user, count = most_active(events)
    lines = [
        "# Activity report",
        "",
        f"events: {len(events)}",
        f"users: {len(users)}",
        f"most active: {user} ({count} events)",
        "",
    ]
    for team in set(members):
        lines.append(f"## {team} ({len(members[team])} members)")
        lines.append("members: " + ", ".join(members[team]))
        lines.append("top tags: " + ", ".join(f"{tag} ({n})" for tag, n in top_tags(tags[team])))
        lines.append("")
    lines.append("spot check: " + ", ".join(spot_check(users)))
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(render(load(sys.argv[1])))
