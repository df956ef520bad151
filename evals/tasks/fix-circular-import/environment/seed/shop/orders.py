"""Turning a cart into an order."""

from dataclasses import dataclass

from shop.models import Cart
from shop.pricing import apply_discount, format_price


@dataclass(frozen=True)
class Order:
    items: tuple[tuple[str, int], ...]
    total_cents: int

    def summary(self) -> str:
        count = sum(qty for _, qty in self.items)
        return f"{count} item(s), {format_price(self.total_cents)}"


def checkout(cart: Cart, code: str | None = None) -> Order:
    """Freeze the cart into an Order, applying a discount code."""
    if not cart.lines:
        raise ValueError("the cart is empty")
    items = tuple(sorted((product.sku, qty) for product, qty in cart.lines.items()))
    return Order(items=items, total_cents=apply_discount(cart.total_cents(), code))
