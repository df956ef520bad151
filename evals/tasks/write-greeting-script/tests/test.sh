#!/usr/bin/env bash
# Verifier, in Harbor's paths: /app, /tests, /logs/verifier.
mkdir -p /logs/verifier
echo 0 > /logs/verifier/reward.txt

fail() { echo "FAIL: $*"; echo 0 > /logs/verifier/reward.txt; exit 0; }

[ -x /app/greet.sh ] || fail "/app/greet.sh is missing or not executable"
got=$(cd /tmp && timeout 10 /app/greet.sh "Ada Lovelace" 2>&1) || fail "greet.sh failed: $got"
[ "$got" = "Hello, Ada Lovelace!" ] || fail "greet.sh 'Ada Lovelace' printed '$got'"
got=$(cd /tmp && timeout 10 /app/greet.sh 2>&1) || fail "greet.sh failed: $got"
[ "$got" = "Hello, world!" ] || fail "greet.sh printed '$got' without an argument"

echo PASS
echo 1 > /logs/verifier/reward.txt
exit 0
