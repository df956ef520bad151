"""Cases beyond the repository's own tests: the sample variance everywhere, and nothing lost."""

import math
import unittest

import calc


class HiddenTest(unittest.TestCase):
    def test_variance_sample(self):
        self.assertAlmostEqual(calc.variance([1, 2, 3, 4]), 5 / 3)
        self.assertAlmostEqual(calc.variance([10, 10, 13]), 3.0)
        self.assertAlmostEqual(calc.variance([-1.5, 0.5]), 2.0)

    def test_stdev_and_zscore(self):
        self.assertAlmostEqual(calc.stdev([1, 2, 3, 4]), math.sqrt(5 / 3))
        z = calc.zscore([1, 2, 3])
        self.assertEqual(len(z), 3)
        for got, want in zip(z, [-1.0, 0.0, 1.0], strict=True):
            self.assertAlmostEqual(got, want)

    def test_every_function_survives(self):
        names = [
            "mean",
            "median",
            "variance",
            "stdev",
            "zscore",
            "clamp",
            "percentile",
            "total",
            "normalize",
            "moving_average",
            "round_half_up",
            "mode",
            "weighted_mean",
            "iqr",
            "span",
        ]
        for name in names:
            self.assertTrue(callable(getattr(calc, name, None)), name)
        self.assertEqual(calc.mode([4, 4, 1]), 4)
        self.assertEqual(calc.span([1, 5]), 4)


if __name__ == "__main__":
    unittest.main()
