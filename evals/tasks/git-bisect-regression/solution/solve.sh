#!/usr/bin/env bash
# Bisect between the first commit (good) and HEAD (bad) with the test suite, record the culprit,
# then fix the divisor (sample variance: n - 1) in a new commit.
set -euo pipefail
git bisect start HEAD "$(git rev-list --max-parents=0 HEAD)"
git bisect run python3 -m unittest -q test_calc > bisect.log 2>&1 || true
git rev-parse refs/bisect/bad > BAD_COMMIT
git bisect reset
rm -f bisect.log
git show --stat "$(cat BAD_COMMIT)" | head -n 6
sed -i 's|return sum(_squared_deviations(values)) / n$|return sum(_squared_deviations(values)) / (n - 1)|' calc.py
python3 -m unittest -q test_calc
git -c user.name="Solver" -c user.email="solver@example.com" commit -q -m "Fix variance(): divide by n - 1 (sample)" -- calc.py
