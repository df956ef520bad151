#!/bin/sh
# PreToolUse (Bash): refuse recursive deletes; exit 2 sends stderr to the model.
if grep -q 'rm -rf'; then
  echo "guard-bash: rm -rf is blocked in this repository; delete files one by one" >&2
  exit 2
fi
exit 0
