"""What the checks need of the workspace's shop/, as plain values: run in judge.py's child, next to shop/.

It asserts nothing: judge_shop.py, in the judge's own process, compares these values with the right
ones, which the child never sees.
"""

import importlib
import sys

API = {
    "shop": ["Cart", "Order", "Product", "apply_discount", "checkout", "format_price", "total_price"],
    "shop.models": ["Product", "Cart"],
    "shop.pricing": ["DISCOUNTS", "format_price", "total_price", "apply_discount", "unit_prices"],
    "shop.orders": ["Order", "checkout"],
}


def raised(call, *args, **kwargs) -> str | None:
    """The built-in class of what `call` raised (a subclass counts as its built-in base), or None."""
    try:
        call(*args, **kwargs)
    except Exception as exc:
        return next(c.__name__ for c in type(exc).__mro__ if c.__module__ == "builtins")
    return None


def api(first: str) -> dict:
    """Import `first` before anything else, then the public API and its behaviour."""
    importlib.import_module(first)
    import shop
    import shop.models
    import shop.orders
    import shop.pricing

    seen: dict = {
        "missing": sorted(f"{m}.{n}" for m, names in API.items() for n in names if not hasattr(sys.modules[m], n))
    }
    seen["not one object"] = sorted(
        f"shop.{name} / {home}.{name}"
        for name in API["shop"]
        for home, names in API.items()
        if home != "shop" and name in names and getattr(shop, name, None) is not getattr(sys.modules[home], name, None)
    )
    Product, Cart = shop.models.Product, shop.models.Cart
    pen, ink = Product("PEN", "Pen", 120), Product("INK", "Ink", 305)
    cart = Cart()
    cart.add(pen, qty=3)
    cart.add(ink)
    cart.add(pen)
    seen["cart.total_cents()"] = cart.total_cents()
    seen["total_price(cart)"] = shop.pricing.total_price(cart)
    seen["unit_prices"] = shop.pricing.unit_prices([pen, ink])
    seen["format_price(100005, 'USD')"] = shop.pricing.format_price(100005, "USD")
    seen["DISCOUNTS['VIP25']"] = shop.pricing.DISCOUNTS["VIP25"]
    seen["pen.label()"] = pen.label()
    order = shop.orders.checkout(cart, code="VIP25")
    seen["order is both Orders"] = isinstance(order, shop.orders.Order) and isinstance(order, shop.Order)
    seen["order.items"] = order.items
    seen["order.total_cents"] = order.total_cents
    seen["order.summary()"] = order.summary()
    seen["total_price(bad) raises"] = [raised(shop.pricing.total_price, bad) for bad in ([pen], None, {"PEN": 1})]
    seen["checkout(empty cart) raises"] = raised(shop.checkout, Cart())
    return seen


def unit() -> dict:
    """The cases of the workspace's tests/test_shop.py, through the package's top-level names."""
    from shop import Cart, Order, Product, apply_discount, checkout, format_price, total_price

    mug, tea = Product("MUG", "Mug", 950), Product("TEA", "Tea", 425)
    seen: dict = {"MUG.label()": mug.label(), "format_price(5)": format_price(5)}
    cart = Cart()
    cart.add(mug, qty=2)
    cart.add(tea)
    seen["cart.total_cents()"], seen["total_price(cart)"] = cart.total_cents(), total_price(cart)
    cart = Cart()
    cart.add(mug, qty=2)
    order = checkout(cart, code="SPRING10")
    seen["order is an Order"] = isinstance(order, Order)
    seen["order.total_cents"], seen["order.summary()"] = order.total_cents, order.summary()
    seen["apply_discount(1000, None)"] = apply_discount(1000, None)
    seen["apply_discount(1000, 'NOPE') raises"] = raised(apply_discount, 1000, "NOPE")
    seen["total_price([MUG]) raises"] = raised(total_price, [mug])
    return seen
