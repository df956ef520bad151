import unittest

from textutil import title_case


class TitleCaseTest(unittest.TestCase):
    def test_capitalises_words(self):
        self.assertEqual(title_case("hello big world"), "Hello Big World")

    def test_collapses_whitespace(self):
        self.assertEqual(title_case("  hello\tbig   world "), "Hello Big World")


if __name__ == "__main__":
    unittest.main()
