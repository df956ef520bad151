#!/usr/bin/env bash
# Parse each line properly: the status is the field right after the quoted request line (which
# may be "-" or contain escaped quotes), not "the 9th word" nor any 5xx-looking number.
set -euo pipefail
python3 - <<'PY'
import collections
import re

LINE = re.compile(r'^(\S+) \S+ \S+ \[[^\]]*\] "(?:[^"\\]|\\.)*" (\d{3}) ')
counts = collections.Counter()
with open("access.log", encoding="utf-8", errors="replace") as log:
    for line in log:
        match = LINE.match(line)
        if match and match.group(2).startswith("5"):
            counts[match.group(1)] += 1
top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
with open("top.txt", "w", encoding="utf-8") as out:
    out.writelines(f"{ip} {n}\n" for ip, n in top)
PY
cat top.txt
