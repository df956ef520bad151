#!/usr/bin/env bash
# Verifier: BAD_COMMIT names the first commit that broke variance(), and a new commit on main
# (on top of the untouched history) fixes it without losing anything; calc.py is taken from that
# commit, the tests from our own folder.
APP="${APP_DIR:-/app}"
TESTS="${TESTS_DIR:-/tests}"
REWARD="${REWARD_DIR:-/logs/verifier}"
mkdir -p "$REWARD"
echo 0 > "$REWARD/reward.txt"   # stays 0 unless every check below passes

# fail() writes the 0 again: code run below could have written a 1 there.
fail() { echo "FAIL: $*"; echo 0 > "$REWARD/reward.txt"; exit 0; }
g() { timeout 30 git -c safe.directory='*' -C "$APP" "$@"; }
by_subject() { g log --format='%H%x09%s' main | awk -F'\t' -v s="$1" '$2 == s {print $1}' | head -n 1; }

[ "$(g symbolic-ref --short HEAD 2>/dev/null)" = main ] || fail "HEAD is not on main"
old_tip=$(by_subject "README: iqr and span")
[ -n "$old_tip" ] || fail "the original commits are gone from main"
g merge-base --is-ancestor "$old_tip" main || fail "history was rewritten"
[ "$(g rev-parse main)" != "$old_tip" ] || fail "no new commit on main"

bad=$(by_subject "Add stdev() and share the deviation helper")
[ -f "$APP/BAD_COMMIT" ] || fail "BAD_COMMIT is missing"
[ "$(tr -d '[:space:]' < "$APP/BAD_COMMIT")" = "$bad" ] || fail "BAD_COMMIT does not name the breaking commit (full hash)"

work=$(mktemp -d)
proof=$(mktemp)
trap 'rm -rf "$work" "$proof"' EXIT
# The tests import the committed calc.py into their own process, so its exit code proves nothing:
# `os._exit(0)` there would pass. nonce_run.py gets this run's secret on stdin and writes it to
# $proof (outside the workspace) only when every test really passed.
nonce=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
sealed() {  # sealed SECONDS NONCE_RUN_ARGS...: true only if nonce_run.py wrote the nonce
  local limit=$1; shift
  : > "$proof"
  timeout "$limit" python3 -B "$TESTS/nonce_run.py" "$proof" "$@" <<<"$nonce"
  [ "$(cat "$proof")" = "$nonce" ]
}
g show main:calc.py > "$work/calc.py" 2>/dev/null || fail "calc.py is not committed on main"
cp "$TESTS/test_calc.py" "$TESTS/test_hidden.py" "$work/"
(cd "$work" && sealed 60 test_calc.py test_hidden.py) || fail "calc.py on main fails the tests"

echo PASS
echo 1 > "$REWARD/reward.txt"
exit 0
