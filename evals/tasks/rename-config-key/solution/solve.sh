#!/usr/bin/env bash
# Replace the whole word max_conn only: \b keeps max_conn_per_host (the _ is a word character).
set -euo pipefail
sed -i -E 's/\bmax_conn\b/max_connections/g' settings.py pool.py config/defaults.json test_pool.py README.md
python3 -m unittest -q test_pool
