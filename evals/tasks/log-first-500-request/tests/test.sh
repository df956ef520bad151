#!/usr/bin/env bash
# Verifier: answer.txt names the one request id setup.sh planted as the first DB-timeout 500
# (setup.sh is seeded, so the logs and the answer are the same every build).
APP="${APP_DIR:-/app}"
REWARD="${REWARD_DIR:-/logs/verifier}"
mkdir -p "$REWARD"
echo 0 > "$REWARD/reward.txt"   # stays 0 unless every check below passes

fail() { echo "FAIL: $*"; echo 0 > "$REWARD/reward.txt"; exit 0; }  # 0 again: workspace code may have written 1

EXPECTED=req-1735f3a0
[ -f "$APP/answer.txt" ] || fail "answer.txt is missing"
[ "$(wc -l < "$APP/answer.txt")" -le 1 ] || fail "answer.txt has more than one line"
got=$(tr -d '[:space:]' < "$APP/answer.txt" | head -c 100)
[ "$got" = "$EXPECTED" ] || fail "answer.txt says '$got'"

echo PASS
echo 1 > "$REWARD/reward.txt"
exit 0
