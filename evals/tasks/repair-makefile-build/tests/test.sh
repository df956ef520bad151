#!/usr/bin/env bash
# Verifier: run the workspace's Makefile and our reference Makefile side by side on fresh copies of
# the reference sources, through a full build, three edits, `make clean` and a parallel build.
APP="${APP_DIR:-/app}"
TESTS="${TESTS_DIR:-/tests}"
REWARD="${REWARD_DIR:-/logs/verifier}"
mkdir -p "$REWARD"
echo 0 > "$REWARD/reward.txt"   # stays 0 unless every check below passes

fail() { echo "FAIL: $*"; echo 0 > "$REWARD/reward.txt"; exit 0; }  # 0 again: workspace code may have written 1

[ -f "$APP/Makefile" ] || fail "Makefile is missing"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
now=$(date +%s)
for side in ref cand; do
  mkdir -p "$work/$side"
  cp -a "$TESTS/src/." "$work/$side/"
  # Sources far in the past, so every later edit is clearly newer than dist/ (no clock races).
  find "$work/$side" -exec touch -d "@$((now - 10000))" {} +
done
cp "$TESTS/Makefile.ref" "$work/ref/Makefile"
cp "$APP/Makefile" "$work/cand/Makefile"

build() {  # build STEP [make args]: run make on both sides, then compare their dist/
  local step=$1; shift
  for side in ref cand; do
    (cd "$work/$side" && timeout 60 make "$@" >"$work/$side.log" 2>&1) \
      || { cat "$work/$side.log"; fail "$step: make $* failed ($side)"; }
  done
  diff -r "$work/ref/dist" "$work/cand/dist" || fail "$step: dist/ differs from the expected build"
}
edit() {  # edit STEP FILE CONTENT: age dist/, then write FILE on both sides with a newer time
  local t=$((now - 5000 + $1 * 100))
  for side in ref cand; do
    find "$work/$side/dist" -exec touch -d "@$t" {} +
    printf '%s' "$3" > "$work/$side/$2"
    touch -d "@$((t + 10))" "$work/$side/$2"
  done
}

build "full build"
build "second run"
edit 1 VERSION $'2.0.0\n'
edit 1 src/chapters/02-usage.md $'# Operating a widget\n\nCarefully.\n\n'
build "after editing VERSION and a chapter"
edit 2 src/chapters/04-care.md $'# Care and feeding\n\nOil monthly.\n\n'
build "after adding a chapter"
edit 3 tools/toc.py "$(sed 's/## Contents/## Table of contents/' "$TESTS/src/tools/toc.py")"
build "after editing tools/toc.py"
edit 4 src/header.md $'# Widgets, revised (@VERSION@)\n\n'
build "after editing the header"

(cd "$work/cand" && timeout 60 make clean >/dev/null 2>&1) || fail "make clean failed"
[ ! -e "$work/cand/dist" ] || fail "make clean left dist/"
[ -f "$work/cand/src/header.md" ] && [ -f "$work/cand/VERSION" ] || fail "make clean removed sources"
rm -rf "$work/ref/dist"
build "parallel build after clean" -j4

echo PASS
echo 1 > "$REWARD/reward.txt"
exit 0
