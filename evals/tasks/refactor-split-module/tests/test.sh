#!/usr/bin/env bash
# Verifier: the package layout is as asked and the cases of the reference tests hold for a clean copy
# of the workspace's package.
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
trap 'rm -rf "$work"' EXIT
# judge.py runs judge_inventory.py and never imports the workspace's inventory/: a child interpreter
# does, runs probe_inventory.py's scenarios there and answers with plain values, which the judge
# compares with the right ones. It holds this run's nonce (on stdin) and prints it only when every
# check passed; the child knows no secret.
nonce=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
judged() {  # judged SECONDS JUDGE_ARGS...: true only if the judge printed the nonce
  local limit=$1; shift
  [ "$(timeout "$limit" python3 -I -B "$TESTS/judge.py" --in "$work" "$@" <<<"$nonce")" = "$nonce" ]
}
cp -a "$APP/inventory" "$work/inventory"
find "$work/inventory" -name __pycache__ -prune -exec rm -rf {} +
cp "$TESTS/probe_inventory.py" "$work/"
WORK=$work judged 90 --remote probe_inventory "$TESTS/judge_inventory.py" || fail "package layout or behaviour"

echo PASS
echo 1 > "$REWARD/reward.txt"
exit 0
