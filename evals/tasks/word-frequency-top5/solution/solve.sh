#!/usr/bin/env bash
# Lower-case, split on anything but a-z, count, sort by count (descending) then word.
set -euo pipefail
tr 'A-Z' 'a-z' < /app/corpus.txt | tr -cs 'a-z' '\n' | grep -v '^$' | sort | uniq -c \
  | awk '{print $2, $1}' | sort -k2,2nr -k1,1 | head -n 5 > /app/top5.txt
