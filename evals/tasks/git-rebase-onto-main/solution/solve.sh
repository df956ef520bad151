#!/usr/bin/env bash
# Rebase, resolve the one conflicting commit by combining both sides, continue.
set -euo pipefail
git checkout -q feature
if ! git rebase main >/dev/null 2>&1; then
  cat > textutil.py <<'PY'
"""Small text helpers."""


def title_case(text: str) -> str:
    """Return ``text`` with each word capitalised; all-caps words (NASA) stay as they are."""
    return " ".join(word if word.isupper() else word.capitalize() for word in text.split())
PY
  git add textutil.py
  GIT_EDITOR=true git rebase --continue
fi
python3 -m unittest -q
git log --oneline main..feature
