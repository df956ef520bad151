import unittest

from dayutil import day_bounds, local_date


class DayBoundsTest(unittest.TestCase):
    def test_utc_noon(self):
        # 2023-11-14 12:00:00 UTC
        self.assertEqual(day_bounds(1699963200, 0), (1699920000, 1700006400))

    def test_positive_offset(self):
        # 2023-11-14 12:00:00 UTC is 14:00 in UTC+02:00; that day began at 2023-11-13 22:00 UTC.
        self.assertEqual(day_bounds(1699963200, 120), (1699912800, 1699999200))

    def test_local_date(self):
        self.assertEqual(local_date(1699963200, 60), "2023-11-14")


if __name__ == "__main__":
    unittest.main()
