import unittest

from rle import decode, encode


class RleExamplesTest(unittest.TestCase):
    def test_spec_examples(self):
        self.assertEqual(encode("aaaaab"), "#5#ab")
        self.assertEqual(encode("aaa#"), "aaa##")
        self.assertEqual(decode("#5#ab"), "aaaaab")


if __name__ == "__main__":
    unittest.main()
