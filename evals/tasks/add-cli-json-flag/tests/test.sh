#!/usr/bin/env bash
# Verifier: drive the workspace's todo.py on fresh lists (JSON per the spec, text as the original
# prints it) and look for the flag in the README's Usage section.
APP="${APP_DIR:-/app}"
TESTS="${TESTS_DIR:-/tests}"
REWARD="${REWARD_DIR:-/logs/verifier}"
mkdir -p "$REWARD"
echo 0 > "$REWARD/reward.txt"   # stays 0 unless every check below passes

fail() { echo "FAIL: $*"; echo 0 > "$REWARD/reward.txt"; exit 0; }  # 0 again: workspace code may have written 1

[ -f "$APP/todo.py" ] || fail "todo.py is missing"
[ -f "$APP/README.md" ] || fail "README.md is missing"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$APP/todo.py" "$work/todo.py"
(cd "$work" && timeout 90 python3 "$TESTS/check_cli.py" "$work/todo.py" "$TESTS/todo_original.py") || fail "todo.py behaviour"
# The flag is documented under "## Usage" (up to the next heading of the same level).
awk '/^## /{usage = ($0 ~ /^## Usage/)} usage' "$APP/README.md" | grep -q -- '--json' \
  || fail "README.md Usage section does not mention --json"

echo PASS
echo 1 > "$REWARD/reward.txt"
exit 0
