#!/usr/bin/env bash
# Verifier: HEAD on main is a new commit on top of the old tip whose only change is
# config/defaults.ini, byte-identical to its last version before the deletion.
APP="${APP_DIR:-/app}"
TESTS="${TESTS_DIR:-/tests}"
REWARD="${REWARD_DIR:-/logs/verifier}"
mkdir -p "$REWARD"
echo 0 > "$REWARD/reward.txt"   # stays 0 unless every check below passes

fail() { echo "FAIL: $*"; echo 0 > "$REWARD/reward.txt"; exit 0; }  # 0 again: workspace code may have written 1
g() { timeout 30 git -c safe.directory='*' -C "$APP" "$@"; }

[ "$(g symbolic-ref --short HEAD 2>/dev/null)" = main ] || fail "HEAD is not on main"
# The old tip (found by its unique subject) must still be in main's history: nothing rewritten.
old_tip=$(g log --format='%H%x09%s' main | awk -F'\t' '$2 == "Add a readiness probe" {print $1}' | head -n 1)
[ -n "$old_tip" ] || fail "the original commits are gone from main"
g merge-base --is-ancestor "$old_tip" main || fail "history was rewritten"
[ "$(g rev-parse main)" != "$old_tip" ] || fail "no new commit on main"
[ "$(g diff --name-only "$old_tip" main)" = "config/defaults.ini" ] || fail "the new commits change more than config/defaults.ini"
want=$(git hash-object "$TESTS/defaults.ini")
[ "$(g rev-parse main:config/defaults.ini 2>/dev/null)" = "$want" ] || fail "committed config/defaults.ini is not its last version"
[ "$(git hash-object "$APP/config/defaults.ini" 2>/dev/null)" = "$want" ] || fail "config/defaults.ini in the work tree differs"

echo PASS
echo 1 > "$REWARD/reward.txt"
exit 0
