#!/usr/bin/env bash
# Verifier: the merge is committed on main with the original two parents, the test files are
# unchanged, and the committed prices.py passes the reference and hidden tests.
APP="${APP_DIR:-/app}"
TESTS="${TESTS_DIR:-/tests}"
REWARD="${REWARD_DIR:-/logs/verifier}"
mkdir -p "$REWARD"
echo 0 > "$REWARD/reward.txt"   # stays 0 unless every check below passes

# fail() writes the 0 again: code run below could have written a 1 there.
fail() { echo "FAIL: $*"; echo 0 > "$REWARD/reward.txt"; exit 0; }
g() { git -c safe.directory='*' -C "$APP" "$@"; }

# setup.sh uses fixed names and dates, so the two tips always have these ids.
MAIN_TIP=426eb2ec71ffdf702534c88fed800d4b1f221503
FEATURE_TIP=cb41ebb67aad46bf52b28ceb5ebbc316b693bde8

g rev-parse --git-dir >/dev/null 2>&1 || fail "not a git repository"
[ -z "$(g rev-parse -q --verify MERGE_HEAD)" ] || fail "the merge is still in progress"
[ "$(g symbolic-ref -q HEAD)" = refs/heads/main ] || fail "HEAD is not on main"
[ "$(g rev-parse 'HEAD^1' 2>/dev/null)" = "$MAIN_TIP" ] || fail "first parent is not the old main"
[ "$(g rev-parse 'HEAD^2' 2>/dev/null)" = "$FEATURE_TIP" ] || fail "second parent is not feature"
[ -z "$(g rev-parse -q --verify 'HEAD^3')" ] || fail "more than two parents"
[ -z "$(g status --porcelain --untracked-files=no)" ] || fail "uncommitted changes"

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
for f in test_prices.py test_discount.py test_rounding.py; do
  g show "HEAD:$f" > "$work/$f" 2>/dev/null || fail "$f missing from the merge"
  cmp -s "$work/$f" "$TESTS/$f" || fail "$f was changed"
done
g show HEAD:prices.py > "$work/prices.py" 2>/dev/null || fail "prices.py missing"
grep -qE '^(<<<<<<<|=======|>>>>>>>)' "$work/prices.py" && fail "conflict markers left in prices.py"
judged 60 --remote prices "$TESTS/test_prices.py" "$TESTS/test_discount.py" "$TESTS/test_rounding.py" "$TESTS/test_combined.py" \
  || fail "unit tests"

echo PASS
echo 1 > "$REWARD/reward.txt"
exit 0
