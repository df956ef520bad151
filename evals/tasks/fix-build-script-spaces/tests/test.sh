#!/usr/bin/env bash
# Verifier: the workspace's build.sh, with our render.py, on a fresh project full of tricky names.
APP="${APP_DIR:-/app}"
TESTS="${TESTS_DIR:-/tests}"
REWARD="${REWARD_DIR:-/logs/verifier}"
mkdir -p "$REWARD"
echo 0 > "$REWARD/reward.txt"   # stays 0 unless every check below passes

fail() { echo "FAIL: $*"; echo 0 > "$REWARD/reward.txt"; exit 0; }  # 0 again: workspace code may have written 1

[ -f "$APP/build.sh" ] || fail "build.sh is missing"
cmp -s "$TESTS/render.py" "$APP/tools/render.py" || fail "tools/render.py was changed"
timeout 120 python3 "$TESTS/check_build.py" "$APP/build.sh" "$TESTS/render.py" || fail "build.sh"

echo PASS
echo 1 > "$REWARD/reward.txt"
exit 0
