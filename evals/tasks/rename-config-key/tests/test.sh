#!/usr/bin/env bash
# Verifier: the renamed files equal our reference versions, CHANGELOG.md is untouched,
# and the workspace code passes the hidden behaviour tests.
APP="${APP_DIR:-/app}"
TESTS="${TESTS_DIR:-/tests}"
REWARD="${REWARD_DIR:-/logs/verifier}"
mkdir -p "$REWARD"
echo 0 > "$REWARD/reward.txt"   # stays 0 unless every check below passes

fail() { echo "FAIL: $*"; echo 0 > "$REWARD/reward.txt"; exit 0; }  # 0 again: workspace code may have written 1

for f in settings.py pool.py test_pool.py README.md; do
  cmp -s "$TESTS/expected/$f" "$APP/$f" || fail "$f differs from the expected rename"
done
cmp -s "$TESTS/original/CHANGELOG.md" "$APP/CHANGELOG.md" || fail "CHANGELOG.md was changed"
# JSON formatting may differ; the parsed object may not. -I: the cwd may be the workspace, and its
# json.py must not stand in for the standard library's.
timeout 30 python3 -I - "$TESTS/expected/config/defaults.json" "$APP/config/defaults.json" <<'PY' || fail "config/defaults.json"
import json, sys
want, got = (json.load(open(p)) for p in sys.argv[1:])
assert got == want, f"{got} != {want}"
PY

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/config"
cp "$APP/settings.py" "$APP/pool.py" "$work/"
cp "$APP/config/defaults.json" "$work/config/"
cp "$TESTS/expected/test_pool.py" "$TESTS/test_renamed.py" "$work/"
(cd "$work" && timeout 60 python3 -m unittest -q test_pool test_renamed) || fail "unit tests"

echo PASS
echo 1 > "$REWARD/reward.txt"
exit 0
