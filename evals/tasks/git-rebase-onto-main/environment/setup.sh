#!/usr/bin/env bash
# Build a repo where `feature` (3 commits) branched from an older `main`; main has since changed
# the same line of textutil.py as feature's second commit. Fixed names and dates: same hashes.
set -euo pipefail
rm -f .gitkeep  # only there so git keeps the empty seed folder
export GIT_AUTHOR_NAME="Robin Dev" GIT_AUTHOR_EMAIL="robin@example.com"
export GIT_COMMITTER_NAME="Robin Dev" GIT_COMMITTER_EMAIL="robin@example.com"
commit() {  # commit DATE MESSAGE
  GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" git commit -q -m "$2"
}

git init -q -b main
git config user.name "Robin Dev"
git config user.email "robin@example.com"
printf '__pycache__/\n' > .gitignore
cat > textutil.py <<'EOF'
"""Small text helpers."""


def title_case(text: str) -> str:
    """Return ``text`` with each word capitalised."""
    return " ".join(word.capitalize() for word in text.split(" "))
EOF
cat > test_textutil.py <<'EOF'
import unittest

from textutil import title_case


class TitleCaseTest(unittest.TestCase):
    def test_capitalises_words(self):
        self.assertEqual(title_case("hello big world"), "Hello Big World")


if __name__ == "__main__":
    unittest.main()
EOF
cat > README.md <<'EOF'
# textutil

Small text helpers.

- `title_case(text)`: capitalise each word.
EOF
git add .gitignore textutil.py test_textutil.py README.md
commit "2026-04-01T09:00:00Z" "Add title_case()"

git checkout -q -b feature
cat > slug.py <<'EOF'
"""Turn titles into URL slugs."""

import re


def slugify(text: str) -> str:
    """Return ``text`` lower-cased with runs of non-alphanumerics replaced by one ``-``."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
EOF
cat > test_slug.py <<'EOF'
import unittest

from slug import slugify


class SlugTest(unittest.TestCase):
    def test_slugify(self):
        self.assertEqual(slugify("Hello, World!"), "hello-world")


if __name__ == "__main__":
    unittest.main()
EOF
git add slug.py test_slug.py
commit "2026-04-02T10:00:00Z" "Add slugify()"

sed -i 's/    return " ".join(word.capitalize() for word in text.split(" "))/    return " ".join(word if word.isupper() else word.capitalize() for word in text.split(" "))/' textutil.py
sed -i 's/with each word capitalised./with each word capitalised; all-caps words (NASA) stay as they are./' textutil.py
cat > test_acronyms.py <<'EOF'
import unittest

from textutil import title_case


class AcronymTest(unittest.TestCase):
    def test_keeps_acronyms(self):
        self.assertEqual(title_case("the NASA report"), "The NASA Report")


if __name__ == "__main__":
    unittest.main()
EOF
git add textutil.py test_acronyms.py
commit "2026-04-03T11:00:00Z" "Keep acronyms in title_case()"

cat >> README.md <<'EOF'
- `slugify(text)` (in `slug.py`): lower-case URL slug, e.g. `hello-world`.
EOF
git add README.md
commit "2026-04-04T12:00:00Z" "Document slugify()"

git checkout -q main
sed -i 's/for word in text.split(" "))/for word in text.split())/' textutil.py
cat > test_textutil.py <<'EOF'
import unittest

from textutil import title_case


class TitleCaseTest(unittest.TestCase):
    def test_capitalises_words(self):
        self.assertEqual(title_case("hello big world"), "Hello Big World")

    def test_collapses_whitespace(self):
        self.assertEqual(title_case("  hello\tbig   world "), "Hello Big World")


if __name__ == "__main__":
    unittest.main()
EOF
git add textutil.py test_textutil.py
commit "2026-04-05T13:00:00Z" "Split title_case() on any whitespace"
cat > CHANGELOG.md <<'EOF'
# Changelog

- title_case() splits on any whitespace.
EOF
git add CHANGELOG.md
commit "2026-04-06T14:00:00Z" "Add a changelog"

git checkout -q feature
