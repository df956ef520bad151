#!/usr/bin/env bash
# The offset is added, not subtracted.
set -euo pipefail
sed -i 's|celsius \* 9 / 5 - 32|celsius * 9 / 5 + 32|' /app/convert.py
