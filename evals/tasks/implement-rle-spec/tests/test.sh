#!/usr/bin/env bash
# Verifier: the workspace's rle.py against hidden spec cases, round trips and invalid inputs.
APP="${APP_DIR:-/app}"
TESTS="${TESTS_DIR:-/tests}"
REWARD="${REWARD_DIR:-/logs/verifier}"
mkdir -p "$REWARD"
echo 0 > "$REWARD/reward.txt"   # stays 0 unless every check below passes

# fail() writes the 0 again: code run below could have written a 1 there.
fail() { echo "FAIL: $*"; echo 0 > "$REWARD/reward.txt"; exit 0; }

[ -f "$APP/rle.py" ] || fail "rle.py is missing"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The tests run in judge.py, which never imports the workspace's code: a child interpreter does, and
# answers the judge's calls with plain values; every assertion is made in the judge. It holds this
# run's nonce (on stdin) and prints it only when every test passed; the child knows no secret.
nonce=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
judged() {  # judged SECONDS JUDGE_ARGS...: true only if the judge printed the nonce
  local limit=$1; shift
  [ "$(timeout "$limit" python3 -I -B "$TESTS/judge.py" --in "$work" "$@" <<<"$nonce")" = "$nonce" ]
}
cp "$APP/rle.py" "$work/"
judged 60 --remote rle "$TESTS/test_rle.py" "$TESTS/test_rle_hidden.py" || fail "unit tests"

echo PASS
echo 1 > "$REWARD/reward.txt"
exit 0
