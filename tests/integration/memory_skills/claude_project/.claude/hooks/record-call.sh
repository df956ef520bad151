#!/bin/sh
# PostToolUse: keep a log of every edit and command, one JSON object a line.
cat >> "$CLAUDE_PROJECT_DIR/hook-calls.jsonl"
echo >> "$CLAUDE_PROJECT_DIR/hook-calls.jsonl"
