#!/usr/bin/env bash
# Build a repo whose `main` and `feature` both changed total() in prices.py, and leave
# `git merge feature` stopped on that conflict. Fixed names and dates: same hashes every time.
set -euo pipefail
rm -f .gitkeep  # only there so git keeps the empty seed folder
export GIT_AUTHOR_NAME="Dana Dev" GIT_AUTHOR_EMAIL="dana@example.com"
export GIT_COMMITTER_NAME="Dana Dev" GIT_COMMITTER_EMAIL="dana@example.com"
commit() {  # commit DATE MESSAGE
  GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" git commit -q -m "$2"
}

git init -q -b main
git config user.name "Dana Dev"
git config user.email "dana@example.com"
printf '__pycache__/\n' > .gitignore

cat > prices.py <<'EOF'
"""Order totals: the sum of the item prices plus tax."""

TAX_RATE = 0.2


def total(prices: list[float]) -> float:
    """Return the sum of ``prices`` plus tax."""
    subtotal = sum(prices)
    return subtotal * (1 + TAX_RATE)
EOF
cat > test_prices.py <<'EOF'
import unittest

from prices import total


class TotalTest(unittest.TestCase):
    def test_adds_tax(self):
        self.assertAlmostEqual(total([10.0, 5.0]), 18.0)

    def test_empty_order(self):
        self.assertEqual(total([]), 0)


if __name__ == "__main__":
    unittest.main()
EOF
git add .gitignore prices.py test_prices.py
commit "2026-03-02T09:00:00Z" "Add order totals"

git checkout -q -b feature
cat > prices.py <<'EOF'
"""Order totals: the sum of the item prices plus tax."""

from decimal import ROUND_HALF_UP, Decimal

TAX_RATE = 0.2
CENT = Decimal("0.01")


def total(prices: list[float]) -> float:
    """Return the sum of ``prices`` plus tax, rounded to whole cents (half up)."""
    subtotal = sum((Decimal(str(p)) for p in prices), Decimal("0"))
    taxed = subtotal * (1 + Decimal(str(TAX_RATE)))
    return float(taxed.quantize(CENT, rounding=ROUND_HALF_UP))
EOF
cat > test_rounding.py <<'EOF'
import unittest

from prices import total


class RoundingTest(unittest.TestCase):
    def test_rounds_to_cents(self):
        self.assertEqual(total([0.1, 0.2]), 0.36)

    def test_rounds_half_up(self):
        self.assertEqual(total([0.0125]), 0.02)  # 0.015 exactly: half up, not to even


if __name__ == "__main__":
    unittest.main()
EOF
git add prices.py test_rounding.py
commit "2026-03-03T10:00:00Z" "Round totals to whole cents"

git checkout -q main
cat > prices.py <<'EOF'
"""Order totals: the sum of the item prices plus tax."""

TAX_RATE = 0.2


def total(prices: list[float], discount: float = 0.0) -> float:
    """Return the sum of ``prices``, less ``discount`` (a fraction: 0.1 is 10 %), plus tax."""
    if not 0 <= discount < 1:
        raise ValueError("discount must be in [0, 1)")
    subtotal = sum(prices) * (1 - discount)
    return subtotal * (1 + TAX_RATE)
EOF
cat > test_discount.py <<'EOF'
import unittest

from prices import total


class DiscountTest(unittest.TestCase):
    def test_discount_before_tax(self):
        self.assertAlmostEqual(total([100.0], discount=0.25), 90.0)

    def test_bad_discount(self):
        with self.assertRaises(ValueError):
            total([1.0], discount=1.0)


if __name__ == "__main__":
    unittest.main()
EOF
git add prices.py test_discount.py
commit "2026-03-04T11:00:00Z" "Add a discount to total()"

# Stops on the conflict in prices.py, which is the point.
GIT_AUTHOR_DATE="2026-03-05T12:00:00Z" GIT_COMMITTER_DATE="2026-03-05T12:00:00Z" \
  git merge --no-edit feature >/dev/null 2>&1 || true
test -f .git/MERGE_HEAD
