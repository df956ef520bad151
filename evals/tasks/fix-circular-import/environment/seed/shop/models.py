"""Products and carts. Prices are integer cents."""

from dataclasses import dataclass, field

from shop.pricing import format_price, total_price


@dataclass(frozen=True)
class Product:
    sku: str
    name: str
    price_cents: int

    def label(self) -> str:
        """'Mug (9.50 EUR)'."""
        return f"{self.name} ({format_price(self.price_cents)})"


@dataclass
class Cart:
    lines: dict[Product, int] = field(default_factory=dict)

    def add(self, product: Product, qty: int = 1) -> None:
        if qty < 1:
            raise ValueError("qty must be at least 1")
        self.lines[product] = self.lines.get(product, 0) + qty

    def total_cents(self) -> int:
        return total_price(self)
