import math
import unittest

import calc


class CalcTest(unittest.TestCase):
    def test_mean(self):
        self.assertEqual(calc.mean([1, 2, 3, 4]), 2.5)

    def test_median(self):
        self.assertEqual(calc.median([5, 1, 3]), 3)
        self.assertEqual(calc.median([4, 1, 3, 2]), 2.5)

    def test_variance(self):
        self.assertAlmostEqual(calc.variance([2, 4, 4, 4, 5, 5, 7, 9]), 32 / 7)

    def test_clamp(self):
        self.assertEqual(calc.clamp(5, 0, 3), 3)
        self.assertEqual(calc.clamp(-1, 0, 3), 0)

    def test_mean_empty(self):
        with self.assertRaises(ValueError):
            calc.mean([])

    def test_percentile(self):
        self.assertEqual(calc.percentile([1, 2, 3, 4, 5], 50), 3)
        self.assertAlmostEqual(calc.percentile([10, 20, 30, 40], 90), 37)

    def test_total(self):
        self.assertEqual(calc.total([0.1] * 10), 1.0)

    def test_normalize(self):
        self.assertEqual(calc.normalize([2, 4, 6]), [0.0, 0.5, 1.0])
        self.assertEqual(calc.normalize([3, 3]), [0.0, 0.0])

    def test_moving_average(self):
        self.assertEqual(calc.moving_average([1, 2, 3, 4], 2), [1.5, 2.5, 3.5])

    def test_clamp_bad_range(self):
        with self.assertRaises(ValueError):
            calc.clamp(1, 3, 0)

    def test_round_half_up(self):
        self.assertEqual(calc.round_half_up(2.5), 3)
        self.assertEqual(calc.round_half_up(1.25, 1), 1.3)

    def test_percentile_range(self):
        with self.assertRaises(ValueError):
            calc.percentile([1, 2], 101)

    def test_stdev(self):
        self.assertAlmostEqual(calc.stdev([2, 4, 4, 4, 5, 5, 7, 9]), math.sqrt(32 / 7))

    def test_mode(self):
        self.assertEqual(calc.mode([1, 2, 2, 3, 3]), 2)

    def test_moving_average_window(self):
        with self.assertRaises(ValueError):
            calc.moving_average([1], 0)

    def test_weighted_mean(self):
        self.assertEqual(calc.weighted_mean([1, 3], [3, 1]), 1.5)

    def test_iqr(self):
        self.assertEqual(calc.iqr([1, 2, 3, 4, 5]), 2)

    def test_span(self):
        self.assertEqual(calc.span([3, 9, 4]), 6)


if __name__ == "__main__":
    unittest.main()
