#!/usr/bin/env bash
# Verifier, in Harbor's paths; the reward goes to /logs/verifier/reward.json (Harbor reads it first).
mkdir -p /logs/verifier
echo '{"reward": 0}' > /logs/verifier/reward.json   # stays 0 unless every check below passes

fail() { echo "FAIL: $*"; echo '{"reward": 0}' > /logs/verifier/reward.json; exit 0; }

[ -f /app/convert.py ] || fail "convert.py is missing"
# Black-box: the program runs in a child; its output is compared here, with values it has not seen.
for pair in "100 212.0" "0 32.0" "-40 -40.0" "37.5 99.5" "-273.15 -459.66999999999996"; do
  set -- $pair
  got=$(cd /tmp && timeout 10 python3 -I /app/convert.py "$1" 2>&1) || fail "convert.py $1 failed: $got"
  [ "$got" = "$2" ] || fail "convert.py $1 printed '$got', not '$2'"
done

echo PASS
echo '{"reward": 1}' > /logs/verifier/reward.json
exit 0
