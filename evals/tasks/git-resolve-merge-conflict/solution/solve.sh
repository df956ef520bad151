#!/usr/bin/env bash
# Resolve by hand-writing the union of both sides, then conclude the merge with a commit.
set -euo pipefail
cat > prices.py <<'PY'
"""Order totals: the sum of the item prices plus tax."""

from decimal import ROUND_HALF_UP, Decimal

TAX_RATE = 0.2
CENT = Decimal("0.01")


def total(prices: list[float], discount: float = 0.0) -> float:
    """Return the sum of ``prices``, less ``discount`` (a fraction: 0.1 is 10 %), plus tax,
    rounded to whole cents (half up)."""
    if not 0 <= discount < 1:
        raise ValueError("discount must be in [0, 1)")
    subtotal = sum((Decimal(str(p)) for p in prices), Decimal("0"))
    subtotal *= 1 - Decimal(str(discount))
    taxed = subtotal * (1 + Decimal(str(TAX_RATE)))
    return float(taxed.quantize(CENT, rounding=ROUND_HALF_UP))
PY
python3 -m unittest -q
git add prices.py
git commit -q --no-edit
