"""Hidden checks: title_case() keeps main's whitespace handling and feature's acronyms."""

import unittest

from slug import slugify
from textutil import title_case


class HiddenTest(unittest.TestCase):
    def test_both_behaviours(self):
        self.assertEqual(title_case("  the   NASA\tand ESA  plan "), "The NASA And ESA Plan")
        self.assertEqual(title_case("hello\nworld"), "Hello World")
        self.assertEqual(title_case("USA"), "USA")
        self.assertEqual(title_case(""), "")

    def test_slugify_kept(self):
        self.assertEqual(slugify("  The NASA Report! "), "the-nasa-report")


if __name__ == "__main__":
    unittest.main()
