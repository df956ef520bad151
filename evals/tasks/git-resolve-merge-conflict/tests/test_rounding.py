import unittest

from prices import total


class RoundingTest(unittest.TestCase):
    def test_rounds_to_cents(self):
        self.assertEqual(total([0.1, 0.2]), 0.36)

    def test_rounds_half_up(self):
        self.assertEqual(total([0.0125]), 0.02)  # 0.015 exactly: half up, not to even


if __name__ == "__main__":
    unittest.main()
