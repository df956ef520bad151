"""A tiny shop: products, carts, prices and orders.

from shop import Cart, Product, checkout
cart = Cart()
cart.add(Product("MUG", "Mug", 950), qty=2)
order = checkout(cart, code="SPRING10")
"""

from shop.models import Cart, Product
from shop.orders import Order, checkout
from shop.pricing import apply_discount, format_price, total_price

__all__ = ["Cart", "Order", "Product", "apply_discount", "checkout", "format_price", "total_price"]
