"""Run by judge.py in its own process: the values probe_shop.py reports from the child, against the right ones.

FIRST_MODULE (in the judge's environment) is the module the child imports before any other.
"""

import os
import unittest

import probe_shop  # a stand-in: each call runs in the child

API = {
    "missing": [],
    "not one object": [],
    "cart.total_cents()": 785,
    "total_price(cart)": 785,
    "unit_prices": {"PEN": "1.20 EUR", "INK": "3.05 EUR"},
    "format_price(100005, 'USD')": "1000.05 USD",
    "DISCOUNTS['VIP25']": 25,
    "pen.label()": "Pen (1.20 EUR)",
    "order is both Orders": True,
    "order.items": (("INK", 1), ("PEN", 4)),
    "order.total_cents": 588,
    "order.summary()": "5 item(s), 5.88 EUR",
    "total_price(bad) raises": ["TypeError", "TypeError", "TypeError"],
    "checkout(empty cart) raises": "ValueError",
}
UNIT = {
    "MUG.label()": "Mug (9.50 EUR)",
    "format_price(5)": "0.05 EUR",
    "cart.total_cents()": 2325,
    "total_price(cart)": 2325,
    "order is an Order": True,
    "order.total_cents": 1710,
    "order.summary()": "2 item(s), 17.10 EUR",
    "apply_discount(1000, None)": 1000,
    "apply_discount(1000, 'NOPE') raises": "ValueError",
    "total_price([MUG]) raises": "TypeError",
}


class ShopTest(unittest.TestCase):
    maxDiff = None

    def test_api_and_unit_cases_after_importing_first(self):
        self.assertEqual(probe_shop.api(os.environ["FIRST_MODULE"]), API)
        self.assertEqual(probe_shop.unit(), UNIT)


if __name__ == "__main__":
    unittest.main()
