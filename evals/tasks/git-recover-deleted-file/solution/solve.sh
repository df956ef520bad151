#!/usr/bin/env bash
# Find the commit that deleted the file, check it out from that commit's parent, commit it.
set -euo pipefail
deleted_in=$(git log --diff-filter=D --format=%H -n 1 -- config/defaults.ini)
git checkout "${deleted_in}^" -- config/defaults.ini
git -c user.name="Solver" -c user.email="solver@example.com" commit -q -m "Restore config/defaults.ini" -- config/defaults.ini
git log --oneline -n 2
