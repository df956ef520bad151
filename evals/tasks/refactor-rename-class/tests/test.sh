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
trap 'rm -rf "$work"' EXIT
# judge.py runs judge_crm.py and never imports the workspace's crm/: a child interpreter does, runs
# probe_crm.py's scenarios there and answers with plain values, which the judge compares with the
# right ones. It holds this run's nonce (on stdin) and prints it only when every check passed; the
# child knows no secret.
nonce=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
judged() {  # judged SECONDS JUDGE_ARGS...: true only if the judge printed the nonce
  local limit=$1; shift
  [ "$(timeout "$limit" python3 -I -B "$TESTS/judge.py" --in "$work" "$@" <<<"$nonce")" = "$nonce" ]
}
cp -R "$APP/crm" "$work/crm"
find "$work/crm" -name __pycache__ -prune -exec rm -rf {} +
cp "$TESTS/probe_crm.py" "$work/"
WORK=$work judged 60 --remote probe_crm "$TESTS/judge_crm.py" || fail "Account, the UserRecord alias, our tests"
# The workspace's own tests are its code too: their exit status is the workspace's word, so it only
# catches an honest mistake (tests left failing); everything above is what proves the rename.
cp -R "$APP/tests" "$work/tests"
(cd "$work" && PYTHONWARNINGS=error::DeprecationWarning timeout 60 python3 -B -m unittest -q tests/test*.py) \
  || fail "the workspace's tests"

echo PASS
echo 1 > "$REWARD/reward.txt"
exit 0
