"""Money: formatting, cart totals, discount codes."""

from shop.models import Cart, Product

DISCOUNTS = {"SPRING10": 10, "VIP25": 25}


def format_price(cents: int, currency: str = "EUR") -> str:
    """1950 -> '19.50 EUR'."""
    return f"{cents // 100}.{cents % 100:02d} {currency}"


def total_price(cart: Cart) -> int:
    """The cart's total in cents."""
    if not isinstance(cart, Cart):
        raise TypeError("total_price() needs a Cart")
    return sum(product.price_cents * qty for product, qty in cart.lines.items())


def apply_discount(cents: int, code: str | None) -> int:
    """The amount after the discount code's percentage, rounded down to a cent."""
    if code is None:
        return cents
    if code not in DISCOUNTS:
        raise ValueError(f"unknown discount code {code!r}")
    return cents * (100 - DISCOUNTS[code]) // 100


def unit_prices(products: list[Product]) -> dict[str, str]:
    """{sku: formatted price} for a price list."""
    return {p.sku: format_price(p.price_cents) for p in products}
