#!/usr/bin/env bash
# Generate access.log: ~20k nginx "combined" lines from a fixed seed (only random.random() is used,
# whose sequence Python guarantees across versions). A few clients get a planned number of 5xx
# responses; decoys have 5xx-looking numbers in the byte count, the path or the user agent.
set -euo pipefail
rm -f .gitkeep
python3 - <<'PY'
import random
from datetime import datetime, timedelta, timezone

rng = random.Random(20250518)
r = rng.random


def pick(seq):
    return seq[int(r() * len(seq))]


PATHS = ["/", "/api/items", "/api/items/42", "/login", "/static/app.js", "/static/app.css",
         "/api/cart", "/search?q=mugs", "/health", "/api/orders", "/500.html", "/errors/503"]
AGENTS = ["Mozilla/5.0 (X11; Linux x86_64) Firefox/126.0", "curl/8.5.0",
          "Mozilla/5.0 (Macintosh) Safari/605.1.15", "Monitor/2.1 (checks 500 502 503)",
          "python-requests/2.31.0"]
METHODS = ["GET", "GET", "GET", "POST", "PUT", "DELETE"]
OK = [200, 200, 200, 200, 201, 204, 301, 304, 400, 401, 403, 404]
ERR = [500, 502, 503, 504]

# Planned 5xx counts; 10.4.0.10 and 10.4.0.9 tie for fifth place (text order decides).
PLANNED = {"203.0.113.7": 41, "2001:db8::17": 37, "198.51.100.23": 36, "192.0.2.140": 30,
           "10.4.0.9": 26, "10.4.0.10": 26, "10.4.0.11": 25}
background = [f"10.{int(r() * 4)}.{int(r() * 256)}.{int(r() * 256)}" for _ in range(900)]
# Decoys: many requests with 5xx-looking byte counts / paths but successful statuses.
DECOY = "172.16.5.5"

events = []  # (ip, status, size, path, agent)
for ip, n in PLANNED.items():
    events += [(ip, pick(ERR), 100 + int(r() * 900), pick(PATHS), pick(AGENTS)) for _ in range(n)]
    events += [(ip, pick(OK), 100 + int(r() * 9000), pick(PATHS), pick(AGENTS)) for _ in range(int(40 + r() * 60))]
events += [(DECOY, 200, pick([500, 502, 503, 504]), pick(PATHS), pick(AGENTS)) for _ in range(80)]
events += [(DECOY, 404, 153, "/500.html", pick(AGENTS)) for _ in range(30)]
events += [(DECOY, 503, 0, "/api/cart", pick(AGENTS)) for _ in range(3)]
while len(events) < 20000:
    ip = pick(background)
    status = pick(ERR) if r() < 0.004 else pick(OK)
    events.append((ip, status, int(r() * 20000), pick(PATHS), pick(AGENTS)))
# Shuffle with random() only (Fisher-Yates), so the order is stable across Python versions.
for i in range(len(events) - 1, 0, -1):
    j = int(r() * (i + 1))
    events[i], events[j] = events[j], events[i]

start = datetime(2025, 5, 18, 0, 0, 0, tzinfo=timezone(timedelta(hours=2)))
with open("access.log", "w", encoding="utf-8") as f:
    for n, (ip, status, size, path, agent) in enumerate(events):
        when = (start + timedelta(seconds=n * 4 + int(r() * 4))).strftime("%d/%b/%Y:%H:%M:%S %z")
        method = pick(METHODS)
        request = f"{method} {path} HTTP/1.1"
        if r() < 0.002:
            request = "-"  # a client that closed before sending a request line
        referer = pick(["-", "https://shop.example.com/", "https://www.example.org/500"])
        f.write(f'{ip} - - [{when}] "{request}" {status} {size} "{referer}" "{agent}"\n')
PY
