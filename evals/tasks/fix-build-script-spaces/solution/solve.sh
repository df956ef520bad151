#!/usr/bin/env bash
# Walk src/ with find -print0 and read -d '' (no word splitting, no globbing), keep each file's
# path relative to src/, quote every expansion, and pass "--" where a name could look like an option.
set -euo pipefail
cat > build.sh <<'SH'
#!/bin/bash
# Build the site into dist/: every page src/**/NAME.md becomes dist/**/NAME.html (rendered by
# tools/render.py), every other file under src/ is copied to the same place under dist/.
# Run from the project root: bash build.sh
set -euo pipefail

rm -rf dist
mkdir -p dist

count=0
while IFS= read -r -d '' file; do
  rel=${file#src/}
  mkdir -p -- "dist/$(dirname -- "$rel")"
  case "$rel" in
    *.md) python3 tools/render.py "$file" > "dist/${rel%.md}.html" ;;
    *) cp -- "$file" "dist/$rel" ;;
  esac
  count=$((count + 1))
done < <(find src -type f -print0)

echo "built $count files"
SH
bash build.sh
