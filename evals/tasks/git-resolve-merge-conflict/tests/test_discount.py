import unittest

from prices import total


class DiscountTest(unittest.TestCase):
    def test_discount_before_tax(self):
        self.assertAlmostEqual(total([100.0], discount=0.25), 90.0)

    def test_bad_discount(self):
        with self.assertRaises(ValueError):
            total([1.0], discount=1.0)


if __name__ == "__main__":
    unittest.main()
