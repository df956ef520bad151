#!/usr/bin/env bash
# Read both files oldest first, remember each request's last error, and stop at the first
# status=500 whose last error was a DB timeout that gave up.
set -euo pipefail
awk '
  $5 == "db:" && /query timeout/ && /giving up/ { cause[$4] = "db_timeout"; next }
  $2 == "ERROR" && $5 != "done"                 { cause[$4] = "other" }
  $5 == "done" && $6 == "status=500" && cause[$4] == "db_timeout" { print $4; exit }
' logs/app.log.1 logs/app.log > answer.txt
cat answer.txt
