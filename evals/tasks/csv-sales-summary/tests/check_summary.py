"""Check the workspace's summary.json against totals computed from our own copy of sales.csv.

Usage: python3 check_summary.py REFERENCE_CSV SUMMARY_JSON
"""

import csv
import json
import sys
from decimal import Decimal


def expected(path: str) -> dict:
    regions: dict[str, list] = {}
    grand = Decimal("0")
    rows = 0
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            amount = int(row["quantity"]) * Decimal(row["unit_price"])
            entry = regions.setdefault(row["region"].strip(), [0, Decimal("0")])
            entry[0] += 1
            entry[1] += amount
            grand += amount
            rows += 1
    return {"grand_total": grand, "row_count": rows, "regions": regions}


def sorted_pairs(pairs: list) -> dict:
    keys = [k for k, _ in pairs]
    assert keys == sorted(keys), f"keys not sorted: {keys}"
    return dict(pairs)


def money(value: object, want: Decimal, what: str) -> None:
    assert isinstance(value, (int, float)) and not isinstance(value, bool), f"{what}: not a number"
    assert abs(Decimal(str(value)) - round(want, 2)) < Decimal("0.000001"), f"{what}: {value} != {round(want, 2)}"


def main() -> None:
    want = expected(sys.argv[1])
    with open(sys.argv[2]) as f:
        got = json.load(f, object_pairs_hook=sorted_pairs)
    assert set(got) == {"grand_total", "regions", "row_count"}, f"top-level keys: {sorted(got)}"
    assert got["row_count"] == want["row_count"], f"row_count {got['row_count']}"
    money(got["grand_total"], want["grand_total"], "grand_total")
    assert set(got["regions"]) == set(want["regions"]), f"regions: {sorted(got['regions'])}"
    for name, (count, total) in want["regions"].items():
        entry = got["regions"][name]
        assert set(entry) == {"count", "total"}, f"{name}: keys {sorted(entry)}"
        assert entry["count"] == count, f"{name}: count {entry['count']} != {count}"
        money(entry["total"], total, f"{name}.total")
    print("summary.json OK")


if __name__ == "__main__":
    main()
