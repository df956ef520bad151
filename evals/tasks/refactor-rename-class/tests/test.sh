#!/usr/bin/env bash
# Verifier: no UserRecord left outside the alias, the class is Account, the alias is the same class
# and warns, our renamed tests and the workspace's own tests pass.
APP="${APP_DIR:-/app}"
TESTS="${TESTS_DIR:-/tests}"
REWARD="${REWARD_DIR:-/logs/verifier}"
mkdir -p "$REWARD"
echo 0 > "$REWARD/reward.txt"   # stays 0 unless every check below passes

# fail() writes the 0 again: code run below could have written a 1 there.
fail() { echo "FAIL: $*"; echo 0 > "$REWARD/reward.txt"; exit 0; }

[ -d "$APP/crm" ] || fail "crm/ is missing"
[ -d "$APP/tests" ] || fail "tests/ is missing"
left=$(grep -rlw --exclude-dir=.git --exclude-dir=__pycache__ UserRecord "$APP" \
  | grep -v -x -e "$APP/crm/__init__.py" -e "$APP/crm/models.py")
[ -z "$left" ] && echo "no UserRecord outside the alias" || fail "UserRecord is still in: $left"
grep -qw Account "$APP/README.md" || fail "README.md does not mention Account"
grep -q "Account('ana', 'ana@example.com')" "$APP/README.md" || fail "README.md shows the old repr"
work=$(mktemp -d)
proof=$(mktemp)
trap 'rm -rf "$work" "$proof"' EXIT
# The checks and tests import the workspace's crm/ into their own process, so its exit code proves
# nothing: `os._exit(0)` there would pass. nonce_run.py gets this run's secret on stdin and writes
# it to $proof (outside the workspace) only when every check really passed.
nonce=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
sealed() {  # sealed SECONDS NONCE_RUN_ARGS...: true only if nonce_run.py wrote the nonce
  local limit=$1; shift
  : > "$proof"
  timeout "$limit" python3 -B "$TESTS/nonce_run.py" "$proof" "$@" <<<"$nonce"
  [ "$(cat "$proof")" = "$nonce" ]
}
cp -R "$APP/crm" "$work/crm"
find "$work/crm" -name __pycache__ -prune -exec rm -rf {} +
(cd "$work" && sealed 30 --script "$TESTS/check_alias.py") || fail "Account / UserRecord alias"
mkdir "$work/ours" && touch "$work/ours/__init__.py" && cp "$TESTS/test_crm_renamed.py" "$work/ours/"
(cd "$work" && PYTHONWARNINGS=error::DeprecationWarning sealed 60 ours/test_crm_renamed.py) || fail "our tests"
cp -R "$APP/tests" "$work/tests"
(cd "$work" && PYTHONWARNINGS=error::DeprecationWarning sealed 60 tests/test*.py) || fail "the workspace's tests"

echo PASS
echo 1 > "$REWARD/reward.txt"
exit 0
