#!/usr/bin/env bash
# Verifier: run the workspace's report.py on the sample and two unseen inputs under several
# PYTHONHASHSEED values; every run must equal the expected report (made with the documented order).
APP="${APP_DIR:-/app}"
TESTS="${TESTS_DIR:-/tests}"
REWARD="${REWARD_DIR:-/logs/verifier}"
mkdir -p "$REWARD"
echo 0 > "$REWARD/reward.txt"   # stays 0 unless every check below passes

fail() { echo "FAIL: $*"; echo 0 > "$REWARD/reward.txt"; exit 0; }  # 0 again: workspace code may have written 1

[ -f "$APP/report.py" ] || fail "report.py is missing"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$APP/report.py" "$work/report.py"
for case in sample hidden edge; do
  input="$TESTS/events_$case.jsonl"; [ "$case" = sample ] && input="$TESTS/events.jsonl"
  expected="$TESTS/expected_$case.txt"; [ "$case" = sample ] && expected="$TESTS/expected.txt"
  for seed in 0 1 2 3 17 4242 random; do
    (cd "$work" && PYTHONHASHSEED=$seed timeout 30 python3 report.py "$input" > "$work/out.txt") \
      || fail "$case: report.py failed (PYTHONHASHSEED=$seed)"
    cmp -s "$expected" "$work/out.txt" \
      || { diff "$expected" "$work/out.txt" | head -20; fail "$case: wrong output (PYTHONHASHSEED=$seed)"; }
  done
done

echo PASS
echo 1 > "$REWARD/reward.txt"
exit 0
