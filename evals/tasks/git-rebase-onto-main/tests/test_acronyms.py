import unittest

from textutil import title_case


class AcronymTest(unittest.TestCase):
    def test_keeps_acronyms(self):
        self.assertEqual(title_case("the NASA report"), "The NASA Report")


if __name__ == "__main__":
    unittest.main()
