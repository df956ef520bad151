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
trap 'rm -rf "$work"' EXIT
# The tests run in judge.py, which never imports the workspace's code: a child interpreter does, and
# answers the judge's calls with plain values; every assertion is made in the judge. It holds this
# run's nonce (on stdin) and prints it only when every test passed; the child knows no secret.
nonce=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
judged() {  # judged SECONDS JUDGE_ARGS...: true only if the judge printed the nonce
  local limit=$1; shift
  [ "$(timeout "$limit" python3 -I -B "$TESTS/judge.py" --in "$work" "$@" <<<"$nonce")" = "$nonce" ]
}
g show main:calc.py > "$work/calc.py" 2>/dev/null || fail "calc.py is not committed on main"
judged 60 --remote calc "$TESTS/test_calc.py" "$TESTS/test_hidden.py" || fail "calc.py on main fails the tests"

echo PASS
echo 1 > "$REWARD/reward.txt"
exit 0
