#!/usr/bin/env bash
# Verifier: orders.json untouched, orders.csv right, and convert.py right on orders it has not seen.
APP="${APP_DIR:-/app}"
TESTS="${TESTS_DIR:-/tests}"
REWARD="${REWARD_DIR:-/logs/verifier}"
mkdir -p "$REWARD"
echo 0 > "$REWARD/reward.txt"   # stays 0 unless every check below passes

fail() { echo "FAIL: $*"; echo 0 > "$REWARD/reward.txt"; exit 0; }  # 0 again: workspace code may have written 1

cmp -s "$TESTS/orders.json" "$APP/orders.json" || fail "orders.json was changed or removed"
[ -f "$APP/orders.csv" ] || fail "orders.csv is missing"
[ -f "$APP/convert.py" ] || fail "convert.py is missing"
timeout 30 python3 "$TESTS/compare_csv.py" "$TESTS/expected.csv" "$APP/orders.csv" || fail "orders.csv is wrong"
# The same script on other orders, in a folder of its own.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$APP/convert.py" "$work/convert.py"
cp "$TESTS/hidden_orders.json" "$work/orders.json"
(cd "$work" && timeout 60 python3 convert.py) || fail "convert.py failed on other orders"
[ -f "$work/orders.csv" ] || fail "convert.py wrote no orders.csv"
timeout 30 python3 "$TESTS/compare_csv.py" "$TESTS/hidden_expected.csv" "$work/orders.csv" || fail "convert.py is wrong on other orders"

echo PASS
echo 1 > "$REWARD/reward.txt"
exit 0
