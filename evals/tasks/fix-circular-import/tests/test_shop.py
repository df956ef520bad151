import unittest

from shop import Cart, Order, Product, apply_discount, checkout, format_price, total_price

MUG = Product("MUG", "Mug", 950)
TEA = Product("TEA", "Tea", 425)


class ShopTest(unittest.TestCase):
    def test_label_and_format(self):
        self.assertEqual(MUG.label(), "Mug (9.50 EUR)")
        self.assertEqual(format_price(5), "0.05 EUR")

    def test_cart_total(self):
        cart = Cart()
        cart.add(MUG, qty=2)
        cart.add(TEA)
        self.assertEqual(cart.total_cents(), 2325)
        self.assertEqual(total_price(cart), 2325)

    def test_checkout_with_discount(self):
        cart = Cart()
        cart.add(MUG, qty=2)
        order = checkout(cart, code="SPRING10")
        self.assertIsInstance(order, Order)
        self.assertEqual(order.total_cents, 1710)
        self.assertEqual(order.summary(), "2 item(s), 17.10 EUR")

    def test_discount_errors(self):
        self.assertEqual(apply_discount(1000, None), 1000)
        with self.assertRaises(ValueError):
            apply_discount(1000, "NOPE")
        with self.assertRaises(TypeError):
            total_price([MUG])


if __name__ == "__main__":
    unittest.main()
