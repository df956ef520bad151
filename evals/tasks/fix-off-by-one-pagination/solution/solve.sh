#!/usr/bin/env bash
# The slice end overshoots by one, so each page repeats the next page's first item.
set -euo pipefail
sed -i 's/end = start + per_page + 1$/end = start + per_page/' pager.py
python3 -m unittest -q test_pager
