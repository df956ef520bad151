#!/usr/bin/env bash
# Break the cycle at its root: formatting needs nothing from models, so it moves to shop/money.py;
# models imports money, pricing imports models (no cycle left). Cart.total_cents() imports
# total_price lazily, since pricing depends on models and not the other way round.
# shop.pricing re-exports format_price, so the public API is unchanged.
set -euo pipefail
cat > shop/money.py <<'PY'
"""Formatting amounts of money (integer cents)."""


def format_price(cents: int, currency: str = "EUR") -> str:
    """1950 -> '19.50 EUR'."""
    return f"{cents // 100}.{cents % 100:02d} {currency}"
PY
python3 - <<'PY'
from pathlib import Path

models = Path("shop/models.py")
src = models.read_text()
src = src.replace("from shop.pricing import format_price, total_price\n", "from shop.money import format_price\n")
src = src.replace(
    "    def total_cents(self) -> int:\n        return total_price(self)\n",
    "    def total_cents(self) -> int:\n"
    "        from shop.pricing import total_price  # pricing depends on models: import when used\n\n"
    "        return total_price(self)\n",
)
models.write_text(src)

pricing = Path("shop/pricing.py")
src = pricing.read_text()
src = src.replace(
    "from shop.models import Cart, Product\n",
    "from shop.models import Cart, Product\nfrom shop.money import format_price\n",
)
start = src.index("def format_price(")
end = src.index("def total_price(")
src = src[:start] + src[end:]
src = src.replace('"""Money: formatting, cart totals, discount codes."""\n', '"""Money: cart totals, discount codes (format_price lives in shop.money)."""\n')
src = src.rstrip("\n") + "\n\n\n__all__ = [\"DISCOUNTS\", \"apply_discount\", \"format_price\", \"total_price\", \"unit_prices\"]\n"
pricing.write_text(src)
PY
for m in shop shop.models shop.pricing shop.orders; do python3 -B -c "import $m"; done
python3 -B -m unittest discover -q -s tests -t .
