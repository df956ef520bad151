#!/usr/bin/env bash
# Verifier: the workspace's semver.py against hidden precedence/validation cases and the seed's examples.
APP="${APP_DIR:-/app}"
TESTS="${TESTS_DIR:-/tests}"
REWARD="${REWARD_DIR:-/logs/verifier}"
mkdir -p "$REWARD"
echo 0 > "$REWARD/reward.txt"   # stays 0 unless every check below passes

# fail() writes the 0 again: code run below could have written a 1 there.
fail() { echo "FAIL: $*"; echo 0 > "$REWARD/reward.txt"; exit 0; }

[ -f "$APP/semver.py" ] || fail "semver.py is missing"
work=$(mktemp -d)
proof=$(mktemp)
trap 'rm -rf "$work" "$proof"' EXIT
# The tests import the workspace's semver.py into their own process, so its exit code proves
# nothing: `os._exit(0)` there would pass. nonce_run.py gets this run's secret on stdin and writes
# it to $proof (outside the workspace) only when every test really passed.
nonce=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
sealed() {  # sealed SECONDS NONCE_RUN_ARGS...: true only if nonce_run.py wrote the nonce
  local limit=$1; shift
  : > "$proof"
  timeout "$limit" python3 -B "$TESTS/nonce_run.py" "$proof" "$@" <<<"$nonce"
  [ "$(cat "$proof")" = "$nonce" ]
}
# Only the workspace's semver.py is used; the tests come from our own folder.
cp "$APP/semver.py" "$work/semver.py"
cp "$TESTS/test_hidden.py" "$TESTS/test_semver.py" "$work/"
(cd "$work" && sealed 60 test_hidden.py test_semver.py) || fail "unit tests"

echo PASS
echo 1 > "$REWARD/reward.txt"
exit 0
