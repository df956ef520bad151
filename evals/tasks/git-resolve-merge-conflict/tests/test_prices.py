import unittest

from prices import total


class TotalTest(unittest.TestCase):
    def test_adds_tax(self):
        self.assertAlmostEqual(total([10.0, 5.0]), 18.0)

    def test_empty_order(self):
        self.assertEqual(total([]), 0)


if __name__ == "__main__":
    unittest.main()
