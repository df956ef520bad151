#!/usr/bin/env bash
# Verifier: main untouched, feature = the same 3 commits (messages, order, files) on top of main,
# linear, checked out and clean; the rebased code passes the reference and hidden tests.
APP="${APP_DIR:-/app}"
TESTS="${TESTS_DIR:-/tests}"
REWARD="${REWARD_DIR:-/logs/verifier}"
mkdir -p "$REWARD"
echo 0 > "$REWARD/reward.txt"   # stays 0 unless every check below passes

# fail() writes the 0 again: code run below could have written a 1 there.
fail() { echo "FAIL: $*"; echo 0 > "$REWARD/reward.txt"; exit 0; }
g() { git -c safe.directory='*' -C "$APP" "$@"; }

MAIN_TIP=c6dea3ac8e0782f464e5a6337c782018b6b3069d   # setup.sh is deterministic
OLD_FEATURE_TIP=ea2e006eb380a4e8b5f5da6967816371b62bfaad

g rev-parse --git-dir >/dev/null 2>&1 || fail "not a git repository"
gitdir=$(g rev-parse --absolute-git-dir)
[ -e "$gitdir/rebase-merge" ] || [ -e "$gitdir/rebase-apply" ] && fail "a rebase is still in progress"
[ "$(g rev-parse -q --verify refs/heads/main)" = "$MAIN_TIP" ] || fail "main was changed"
[ "$(g symbolic-ref -q HEAD)" = refs/heads/feature ] || fail "feature is not checked out"
[ "$(g rev-parse HEAD)" != "$OLD_FEATURE_TIP" ] || fail "feature was not rebased"
[ -z "$(g status --porcelain --untracked-files=no)" ] || fail "uncommitted changes"
[ -z "$(g rev-list --merges main..feature)" ] || fail "merge commits on feature"
[ "$(g merge-base main feature)" = "$MAIN_TIP" ] || fail "feature is not on top of main"

subjects=$(g log --reverse --format=%s main..feature)
want=$'Add slugify()\nKeep acronyms in title_case()\nDocument slugify()'
[ "$subjects" = "$want" ] || fail "feature commits are: $subjects"
files=()
for c in $(g rev-list --reverse main..feature); do
  files+=("$(g diff-tree --no-commit-id --name-only -r "$c" | sort | tr '\n' ' ')")
done
[ "${files[0]}" = "slug.py test_slug.py " ] || fail "commit 1 touches: ${files[0]}"
[ "${files[1]}" = "test_acronyms.py textutil.py " ] || fail "commit 2 touches: ${files[1]}"
[ "${files[2]}" = "README.md " ] || fail "commit 3 touches: ${files[2]}"

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
for f in test_textutil.py test_acronyms.py test_slug.py README.md CHANGELOG.md; do
  g show "HEAD:$f" > "$work/$f" 2>/dev/null || fail "$f missing"
  cmp -s "$work/$f" "$TESTS/$f" || fail "$f differs from the expected content"
done
g show HEAD:textutil.py > "$work/textutil.py" 2>/dev/null || fail "textutil.py missing"
g show HEAD:slug.py > "$work/slug.py" 2>/dev/null || fail "slug.py missing"
judged 60 --remote textutil,slug "$TESTS/test_textutil.py" "$TESTS/test_acronyms.py" "$TESTS/test_slug.py" "$TESTS/test_hidden.py" \
  || fail "unit tests"

echo PASS
echo 1 > "$REWARD/reward.txt"
exit 0
