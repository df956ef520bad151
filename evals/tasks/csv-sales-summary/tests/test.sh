#!/usr/bin/env bash
# Verifier: sales.csv untouched, summary.json matches totals computed from our reference copy.
APP="${APP_DIR:-/app}"
TESTS="${TESTS_DIR:-/tests}"
REWARD="${REWARD_DIR:-/logs/verifier}"
mkdir -p "$REWARD"
echo 0 > "$REWARD/reward.txt"   # stays 0 unless every check below passes

fail() { echo "FAIL: $*"; echo 0 > "$REWARD/reward.txt"; exit 0; }  # 0 again: workspace code may have written 1

cmp -s "$TESTS/sales.csv" "$APP/sales.csv" || fail "sales.csv was changed or removed"
[ -f "$APP/summary.json" ] || fail "summary.json is missing"
timeout 60 python3 "$TESTS/check_summary.py" "$TESTS/sales.csv" "$APP/summary.json" || fail "summary.json is wrong"

echo PASS
echo 1 > "$REWARD/reward.txt"
exit 0
