#!/bin/bash
# Build the site into dist/: every page src/**/NAME.md becomes dist/**/NAME.html (rendered by
# tools/render.py), every other file under src/ is copied to the same place under dist/.
# Run from the project root: bash build.sh

rm -rf dist
mkdir -p dist

for page in $(ls src/*.md); do
  name=$(basename $page .md)
  python3 tools/render.py $page > dist/$name.html
done

for asset in $(ls src | grep -v '\.md$'); do
  cp src/$asset dist/
done

echo "built $(ls dist | wc -l) files"
