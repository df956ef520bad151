#!/usr/bin/env bash
# Verifier: the package layout is as asked (check_split.py) and the reference tests pass against
# a clean copy of the workspace's package.
APP="${APP_DIR:-/app}"
TESTS="${TESTS_DIR:-/tests}"
REWARD="${REWARD_DIR:-/logs/verifier}"
mkdir -p "$REWARD"
echo 0 > "$REWARD/reward.txt"   # stays 0 unless every check below passes

# fail() writes the 0 again: code run below could have written a 1 there.
fail() { echo "FAIL: $*"; echo 0 > "$REWARD/reward.txt"; exit 0; }

[ -d "$APP/inventory" ] || fail "no inventory/ package"
[ ! -e "$APP/inventory.py" ] || fail "inventory.py still exists"
cmp -s "$TESTS/test_inventory.py" "$APP/test_inventory.py" || fail "test_inventory.py was changed"
work=$(mktemp -d)
proof=$(mktemp)
trap 'rm -rf "$work" "$proof"' EXIT
# The checks and tests import the workspace's inventory/ into their own process, so its exit code
# proves nothing: `os._exit(0)` there would pass. nonce_run.py gets this run's secret on stdin and
# writes it to $proof (outside the workspace) only when every check really passed.
nonce=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
sealed() {  # sealed SECONDS NONCE_RUN_ARGS...: true only if nonce_run.py wrote the nonce
  local limit=$1; shift
  : > "$proof"
  timeout "$limit" python3 -B "$TESTS/nonce_run.py" "$proof" "$@" <<<"$nonce"
  [ "$(cat "$proof")" = "$nonce" ]
}
cp -a "$APP/inventory" "$work/inventory"
find "$work/inventory" -name __pycache__ -prune -exec rm -rf {} +
cp "$TESTS/test_inventory.py" "$work/"
(cd "$work" && sealed 60 --script "$TESTS/check_split.py") || fail "package layout"
(cd "$work" && sealed 90 test_inventory.py) || fail "unit tests"

echo PASS
echo 1 > "$REWARD/reward.txt"
exit 0
