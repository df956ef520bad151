"""Hidden checks: discount and cent rounding together in the merged total()."""

import unittest

from prices import total


class CombinedTest(unittest.TestCase):
    def test_discount_then_tax_then_rounding(self):
        cases = [
            (([19.99, 5.01], 0.15), 25.5),
            (([3.33], 0.1), 3.6),
            (([1.11, 2.22], 0.05), 3.8),
            (([7.77], 0.2), 7.46),
            (([10.0, 0.05], 0.1), 10.85),
            (([0.1, 0.2], 0.0), 0.36),
        ]
        for (prices, discount), want in cases:
            got = total(prices, discount=discount)
            self.assertIsInstance(got, float)
            self.assertEqual(got, want, (prices, discount))

    def test_default_discount_and_half_up(self):
        self.assertEqual(total([0.0125]), 0.02)
        self.assertEqual(total([2.5]), 3.0)

    def test_validation_kept(self):
        for bad in (-0.1, 1.0, 1.5):
            with self.assertRaises(ValueError):
                total([1.0], discount=bad)


if __name__ == "__main__":
    unittest.main()
