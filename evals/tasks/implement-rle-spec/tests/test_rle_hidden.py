"""Hidden checks of rle.encode/decode against SPEC.md."""

import random
import unittest

from rle import decode, encode


class EncodeTest(unittest.TestCase):
    def test_exact_encodings(self):
        cases = {
            "": "",
            "a": "a",
            "ab": "ab",
            "aaa": "aaa",
            "aaaa": "#4#a",
            "aaaaab": "#5#ab",
            "#": "##",
            "##": "####",
            "###": "######",
            "####": "#4##",
            "#####": "#5##",
            "77777777": "#8#7",
            "a1111b": "a#4#1b",
            "12": "12",
            "\n\n\n\n\n": "#5#\n",
            "ééééé": "#5#é",
            "x" * 999: "#999#x",
            "x" * 1000: "#999#xx",
            "x" * 1002: "#999#xxxx",
            "x" * 1003: "#999#x#4#x",
            "x" * 2000: "#999#x#999#x" + "xx",
            "#" * 1001: "#999##" + "####",
            "aabbbbcc#dddd": "aa#4#bcc###4#d",
        }
        for text, want in cases.items():
            self.assertEqual(encode(text), want, repr(text[:20]))


class DecodeTest(unittest.TestCase):
    def test_exact_decodings(self):
        self.assertEqual(decode("#999#x#4#x"), "x" * 1003)
        self.assertEqual(decode("a#4#1b"), "a1111b")
        self.assertEqual(decode("#12##"), "#" * 12)
        self.assertEqual(decode("####"), "##")
        self.assertEqual(decode("#4#\n"), "\n" * 4)
        self.assertEqual(decode(""), "")

    def test_rejects_invalid(self):
        for bad in [
            "#",
            "a#",
            "#a",
            "#x#a",
            "#3#a",
            "#1#a",
            "#0#a",
            "#04#a",
            "#1000#a",
            "#5",
            "#5#",
            "#5a",
            "ab#",
            "#-5#a",
            "## #",
        ]:
            with self.assertRaises(ValueError, msg=repr(bad)):
                decode(bad)


class RoundTripTest(unittest.TestCase):
    def test_random_round_trips(self):
        rng = random.Random(7)
        alphabet = "ab#0123\n é"
        for _ in range(400):
            parts = []
            for _ in range(rng.randint(0, 12)):
                parts.append(rng.choice(alphabet) * rng.choice([1, 1, 2, 3, 4, 5, 9, 10, 998, 999, 1000, 1500]))
            text = "".join(parts)
            encoded = encode(text)
            self.assertEqual(decode(encoded), text)
            self.assertLessEqual(len(encoded), 2 * len(text))


if __name__ == "__main__":
    unittest.main()
