"""Import FIRST in a fresh interpreter, then check the whole public API and its behaviour.

Usage: python3 nonce_run.py PROOF --script check_api.py FIRST_MODULE   (in the folder holding shop/)
"""

import importlib
import sys

first = sys.argv[1]
importlib.import_module(first)

import shop  # noqa: E402
import shop.models  # noqa: E402
import shop.orders  # noqa: E402
import shop.pricing  # noqa: E402

API = {
    "shop": ["Cart", "Order", "Product", "apply_discount", "checkout", "format_price", "total_price"],
    "shop.models": ["Product", "Cart"],
    "shop.pricing": ["DISCOUNTS", "format_price", "total_price", "apply_discount", "unit_prices"],
    "shop.orders": ["Order", "checkout"],
}
for module, names in API.items():
    for name in names:
        assert hasattr(sys.modules[module], name), f"{module}.{name} is missing"
# One object per name, wherever it is imported from.
for name in API["shop"]:
    homes = [sys.modules[m] for m, names in API.items() if m != "shop" and name in names]
    for home in homes:
        assert getattr(shop, name) is getattr(home, name), f"shop.{name} is not {home.__name__}.{name}"

Product, Cart = shop.models.Product, shop.models.Cart
pen, ink = Product("PEN", "Pen", 120), Product("INK", "Ink", 305)
cart = Cart()
cart.add(pen, qty=3)
cart.add(ink)
cart.add(pen)
assert cart.total_cents() == 785, cart.total_cents()
assert shop.pricing.total_price(cart) == 785
assert shop.pricing.unit_prices([pen, ink]) == {"PEN": "1.20 EUR", "INK": "3.05 EUR"}
assert shop.pricing.format_price(100005, "USD") == "1000.05 USD"
assert shop.pricing.DISCOUNTS["VIP25"] == 25
assert pen.label() == "Pen (1.20 EUR)"
order = shop.orders.checkout(cart, code="VIP25")
assert isinstance(order, shop.orders.Order) and isinstance(order, shop.Order)
assert order.items == (("INK", 1), ("PEN", 4)), order.items
assert order.total_cents == 588 and order.summary() == "5 item(s), 5.88 EUR", order
for bad in ([pen], None, {"PEN": 1}):
    try:
        shop.pricing.total_price(bad)
    except TypeError:
        pass
    else:
        raise AssertionError(f"total_price({bad!r}) did not raise TypeError")
try:
    shop.checkout(Cart())
except ValueError:
    pass
else:
    raise AssertionError("checkout of an empty cart did not raise ValueError")
print(f"API OK ({first} first)")
