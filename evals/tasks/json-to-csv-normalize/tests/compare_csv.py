"""Compare two CSV files cell by cell (quoting and line endings may differ, values may not).

Usage: python3 compare_csv.py EXPECTED GOT
"""

import csv
import sys


def rows(path: str) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8-sig") as f:
        return [row for row in csv.reader(f) if row]


want, got = rows(sys.argv[1]), rows(sys.argv[2])
assert got[:1] == want[:1], f"header: {got[:1]} != {want[:1]}"
assert len(got) == len(want), f"{len(got) - 1} data rows, expected {len(want) - 1}"
for number, (w, g) in enumerate(zip(want, got, strict=True), start=1):
    assert g == w, f"row {number}: {g} != {w}"
print(f"{len(want) - 1} rows OK")
