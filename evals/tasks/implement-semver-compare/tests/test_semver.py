import unittest

from semver import compare


class CompareTest(unittest.TestCase):
    def test_core_versions(self):
        self.assertEqual(compare("1.2.3", "1.2.3"), 0)
        self.assertEqual(compare("1.2.3", "1.2.4"), -1)
        self.assertEqual(compare("2.0.0", "1.9.9"), 1)

    def test_prerelease_is_lower(self):
        self.assertEqual(compare("1.0.0-alpha", "1.0.0"), -1)

    def test_invalid(self):
        with self.assertRaises(ValueError):
            compare("1.2", "1.2.0")


if __name__ == "__main__":
    unittest.main()
