#!/usr/bin/env bash
# Every set iteration and hash() call becomes an explicit, documented order:
# sort teams, members and the sample by name; break count ties by name; crc32 instead of hash().
set -euo pipefail
python3 - <<'PY'
from pathlib import Path

path = Path("report.py")
code = path.read_text()
fixes = [
    ("import json\nimport sys\n", "import json\nimport sys\nimport zlib\n"),
    ("    return counts.most_common(n)",
     "    # most_common() keeps insertion order on ties, and that order came from a set.\n"
     "    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:n]"),
    ("    best = max(set(per_user), key=per_user.get)",
     "    best = min(per_user, key=lambda user: (-per_user[user], user))"),
    ("    return [user for user in users if hash(user) % 5 == 0]",
     "    # hash() of a str changes with PYTHONHASHSEED; crc32 is the same everywhere.\n"
     '    return sorted(user for user in users if zlib.crc32(user.encode("utf-8")) % 5 == 0)'),
    ("    for team in set(members):", "    for team in sorted(members):"),
    ('", ".join(members[team])', '", ".join(sorted(members[team]))'),
]
for old, new in fixes:
    assert code.count(old) == 1, old
    code = code.replace(old, new)
path.write_text(code)
PY
for seed in 0 1 2; do PYTHONHASHSEED=$seed python3 report.py events.jsonl | md5sum; done
