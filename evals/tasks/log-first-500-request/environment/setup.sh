#!/usr/bin/env bash
# Generate logs/app.log.1 (older, rotated) and logs/app.log: ~50,000 interleaved lines of a web
# service. Only random.Random.random() is used: its sequence for a seed is the same on every Python.
set -euo pipefail
rm -f .gitkeep  # only there so git keeps the empty seed folder
mkdir -p logs
python3 - <<'PY'
import random
from datetime import datetime, timedelta, timezone

rng = random.Random(20260510)


def pick(seq):
    return seq[int(rng.random() * len(seq))]


def req_id():
    return "req-" + "".join(pick("0123456789abcdef") for _ in range(8))


PATHS = ["/api/orders", "/api/orders/{n}", "/api/items?limit=500", "/api/cart", "/api/users/{n}",
         "/health", "/api/search?q=timeout", "/api/checkout"]
METHODS = ["GET", "GET", "GET", "POST", "PUT"]


def request(kind: str) -> tuple[str, list[tuple[str, str]]]:
    rid = req_id()
    path = pick(PATHS).replace("{n}", str(int(rng.random() * 5000)))
    lines = [("INFO", f"start {pick(METHODS)} {path}")]
    ms = lambda: int(5 + rng.random() * 400)  # noqa: E731
    if kind == "ok":
        if rng.random() < 0.3:
            lines.append(("DEBUG", f"db: query ok rows={int(rng.random() * 50)} in {ms()}ms"))
        status = pick([200, 200, 200, 200, 201, 204, 304, 400, 404])
        lines.append(("INFO", f"done status={status} dur={ms()}ms"))
    elif kind == "slow_ok":
        lines.append(("WARN", "slow request: dur=500ms over budget"))
        lines.append(("INFO", "done status=200 dur=500ms"))
    elif kind == "keyerror_500":
        lines.append(("ERROR", "unhandled exception: KeyError: 'sku'"))
        lines.append(("ERROR", f"done status=500 dur={ms()}ms"))
    elif kind == "cache_timeout_500":
        lines.append(("ERROR", "cache: redis GET timed out after 500ms"))
        lines.append(("ERROR", f"done status=500 dur={ms() + 500}ms"))
    elif kind == "deadlock_500":
        lines.append(("ERROR", "db: deadlock detected, transaction aborted"))
        lines.append(("ERROR", f"done status=500 dur={ms()}ms"))
    elif kind == "upstream_timeout_500":
        lines.append(("ERROR", "payments: upstream timeout after 3000ms"))
        lines.append(("ERROR", "done status=500 dur=3012ms"))
    elif kind == "db_timeout_recovered":
        lines.append(("WARN", "db: query timeout after 3000ms (attempt 1/3), retrying"))
        lines.append(("INFO", "db: query ok on attempt 2/3"))
        lines.append(("INFO", f"done status=200 dur={3000 + ms()}ms"))
    elif kind == "db_timeout_503":
        for attempt in (1, 2):
            lines.append(("WARN", f"db: query timeout after 3000ms (attempt {attempt}/3), retrying"))
        lines.append(("ERROR", "db: query timeout after 3000ms (attempt 3/3), giving up"))
        lines.append(("ERROR", "done status=503 dur=9021ms"))
    elif kind == "db_timeout_then_keyerror_500":
        lines.append(("WARN", "db: query timeout after 3000ms (attempt 1/3), retrying"))
        lines.append(("INFO", "db: query ok on attempt 2/3"))
        lines.append(("ERROR", "unhandled exception: KeyError: 'price'"))
        lines.append(("ERROR", f"done status=500 dur={3000 + ms()}ms"))
    elif kind == "db_timeout_500":
        for attempt in (1, 2):
            lines.append(("WARN", f"db: query timeout after 3000ms (attempt {attempt}/3), retrying"))
        lines.append(("ERROR", "db: query timeout after 3000ms (attempt 3/3), giving up"))
        lines.append(("ERROR", "done status=500 dur=9034ms"))
    else:
        raise ValueError(kind)
    return rid, lines


# Special requests by index; every other request is ordinary traffic.
SPECIAL = {
    300: "db_timeout_recovered", 900: "keyerror_500", 1500: "cache_timeout_500",
    2100: "db_timeout_503", 2600: "deadlock_500", 3000: "db_timeout_then_keyerror_500",
    3500: "upstream_timeout_500", 4100: "db_timeout_recovered", 4700: "db_timeout_503",
    5200: "keyerror_500", 5600: "db_timeout_recovered",
    6000: "db_timeout_500",  # the answer: first 500 caused by a DB timeout
    6300: "keyerror_500", 9500: "db_timeout_500", 12000: "cache_timeout_500",
    14000: "db_timeout_500", 17000: "db_timeout_recovered", 19500: "db_timeout_500",
}

clock = datetime(2026, 5, 10, 0, 0, 0, tzinfo=timezone.utc)
out: list[str] = []
active: list[list] = []  # [rid, worker, remaining lines]
n = 0
answer = None
while len(out) < 50_000 or active:
    if len(out) < 50_000 and (not active or (len(active) < 4 and rng.random() < 0.45)):
        rid, lines = request(SPECIAL.get(n, "slow_ok" if rng.random() < 0.01 else "ok"))
        if SPECIAL.get(n) == "db_timeout_500" and answer is None:
            answer = rid
        active.append([rid, 1 + int(rng.random() * 8), lines])
        n += 1
        entry = active[-1]
    else:
        entry = pick(active)
    rid, worker, lines = entry
    level, msg = lines.pop(0)
    if not lines:
        active.remove(entry)
    clock += timedelta(milliseconds=int(1 + rng.random() * 60))
    stamp = clock.strftime("%Y-%m-%dT%H:%M:%S.") + f"{clock.microsecond // 1000:03d}Z"
    out.append(f"{stamp} {level:<5} [worker-{worker}] {rid} {msg}\n")

split = 20_000
with open("logs/app.log.1", "w") as f:
    f.writelines(out[:split])
with open("logs/app.log", "w") as f:
    f.writelines(out[split:])
PY
