#!/usr/bin/env bash
# Verifier, in Harbor's paths: the workspace is /app, these tests /tests, the reward /logs/verifier.
mkdir -p /logs/verifier
echo 0 > /logs/verifier/reward.txt   # stays 0 unless every check below passes

fail() { echo "FAIL: $*"; echo 0 > /logs/verifier/reward.txt; exit 0; }

cmp -s /tests/corpus.txt /app/corpus.txt || fail "corpus.txt was changed or removed"
[ -f /app/top5.txt ] || fail "top5.txt is missing"
timeout 30 python3 -I /tests/test_outputs.py /tests/corpus.txt /app/top5.txt || fail "top5.txt is wrong"

echo PASS
echo 1 > /logs/verifier/reward.txt
exit 0
