#!/usr/bin/env bash
# Verifier: each module of the workspace's shop/ imports first in a fresh interpreter and the
# public API behaves as before; our copy of the tests passes.
APP="${APP_DIR:-/app}"
TESTS="${TESTS_DIR:-/tests}"
REWARD="${REWARD_DIR:-/logs/verifier}"
mkdir -p "$REWARD"
echo 0 > "$REWARD/reward.txt"   # stays 0 unless every check below passes

# fail() writes the 0 again: code run below could have written a 1 there.
fail() { echo "FAIL: $*"; echo 0 > "$REWARD/reward.txt"; exit 0; }

[ -d "$APP/shop" ] || fail "shop/ is missing"
cmp -s "$TESTS/test_shop.py" "$APP/tests/test_shop.py" || fail "tests/test_shop.py was changed"
work=$(mktemp -d)
proof=$(mktemp)
trap 'rm -rf "$work" "$proof"' EXIT
# The checks and tests import the workspace's shop/ into their own process, so its exit code proves
# nothing: `os._exit(0)` there would pass. nonce_run.py gets this run's secret on stdin and writes
# it to $proof (outside the workspace) only when every check really passed.
nonce=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
sealed() {  # sealed SECONDS NONCE_RUN_ARGS...: true only if nonce_run.py wrote the nonce
  local limit=$1; shift
  : > "$proof"
  timeout "$limit" python3 -B "$TESTS/nonce_run.py" "$proof" "$@" <<<"$nonce"
  [ "$(cat "$proof")" = "$nonce" ]
}
cp -R "$APP/shop" "$work/shop"
find "$work/shop" -name __pycache__ -prune -exec rm -rf {} +
mkdir "$work/tests" && touch "$work/tests/__init__.py" && cp "$TESTS/test_shop.py" "$work/tests/"
for first in shop shop.models shop.pricing shop.orders; do
  (cd "$work" && sealed 30 --script "$TESTS/check_api.py" "$first") || fail "import $first first"
done
(cd "$work" && sealed 60 tests/test_shop.py) || fail "unit tests"

echo PASS
echo 1 > "$REWARD/reward.txt"
exit 0
