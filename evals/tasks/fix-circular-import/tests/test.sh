#!/usr/bin/env bash
# Verifier: each module of the workspace's shop/ imports first in a fresh interpreter and the
# public API behaves as before, as do the cases of its tests.
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
trap 'rm -rf "$work"' EXIT
# judge.py runs judge_shop.py and never imports the workspace's shop/: a child interpreter does, runs
# probe_shop.py's scenarios there and answers with plain values, which the judge compares with the
# right ones. It holds this run's nonce (on stdin) and prints it only when every check passed; the
# child knows no secret.
nonce=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
judged() {  # judged SECONDS JUDGE_ARGS...: true only if the judge printed the nonce
  local limit=$1; shift
  [ "$(timeout "$limit" python3 -I -B "$TESTS/judge.py" --in "$work" "$@" <<<"$nonce")" = "$nonce" ]
}
cp -R "$APP/shop" "$work/shop"
find "$work/shop" -name __pycache__ -prune -exec rm -rf {} +
cp "$TESTS/probe_shop.py" "$work/"
for first in shop shop.models shop.pricing shop.orders; do
  FIRST_MODULE=$first judged 30 --remote probe_shop "$TESTS/judge_shop.py" || fail "import $first first"
done

echo PASS
echo 1 > "$REWARD/reward.txt"
exit 0
