#!/usr/bin/env bash
# Sum the amounts per trimmed region with Decimal (exact cents), then write sorted, rounded JSON.
set -euo pipefail
python3 - <<'PY'
import csv
import json
from decimal import Decimal

regions: dict[str, dict] = {}
grand = Decimal("0")
rows = 0
with open("sales.csv", newline="") as f:
    for row in csv.DictReader(f):
        amount = int(row["quantity"]) * Decimal(row["unit_price"])
        entry = regions.setdefault(row["region"].strip(), {"count": 0, "total": Decimal("0")})
        entry["count"] += 1
        entry["total"] += amount
        grand += amount
        rows += 1

summary = {
    "grand_total": float(round(grand, 2)),
    "regions": {name: {"count": e["count"], "total": float(round(e["total"], 2))}
                for name, e in regions.items()},
    "row_count": rows,
}
with open("summary.json", "w") as f:
    json.dump(summary, f, indent=2, sort_keys=True)
    f.write("\n")
PY
