#!/usr/bin/env bash
# Verifier: top.txt equals the answer computed once from the seeded log (planned counts, a tie
# for fifth place, and decoys: 5xx-like byte counts, paths, user agents, "-" request lines).
APP="${APP_DIR:-/app}"
TESTS="${TESTS_DIR:-/tests}"
REWARD="${REWARD_DIR:-/logs/verifier}"
mkdir -p "$REWARD"
echo 0 > "$REWARD/reward.txt"   # stays 0 unless every check below passes

fail() { echo "FAIL: $*"; echo 0 > "$REWARD/reward.txt"; exit 0; }  # 0 again: workspace code may have written 1

[ -f "$APP/top.txt" ] || fail "top.txt is missing"
# Tolerate CRLF, trailing blanks and a missing or extra final newline; nothing else.
got=$(tr -d '\r' < "$APP/top.txt" | sed -e 's/[[:space:]]*$//' -e '/^$/d')
want=$(cat "$TESTS/expected_top.txt")
if [ "$got" != "$want" ]; then
  printf 'expected:\n%s\ngot:\n%s\n' "$want" "$got"
  fail "top.txt is wrong"
fi

echo PASS
echo 1 > "$REWARD/reward.txt"
exit 0
