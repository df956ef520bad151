"""Precedence and validation cases from SPEC.md, beyond the workspace's examples."""

import itertools
import unittest

from semver import compare

ASCENDING = [
    "0.0.1",
    "0.1.0",
    "0.9.0",
    "0.10.0",
    "1.0.0-0",
    "1.0.0-1",
    "1.0.0-2",
    "1.0.0-10",
    "1.0.0-0a",
    "1.0.0-Alpha",
    "1.0.0-alpha",
    "1.0.0-alpha.1",
    "1.0.0-alpha.1.0",
    "1.0.0-alpha.2",
    "1.0.0-alpha.10",
    "1.0.0-alpha.a",
    "1.0.0-alpha.beta",
    "1.0.0-alpha-b",
    "1.0.0-beta",
    "1.0.0-beta.2",
    "1.0.0-beta.11",
    "1.0.0-rc.1",
    "1.0.0",
    "1.0.1-x-y-z.--",
    "1.0.1",
    "1.1.0",
    "1.9.0",
    "1.10.0",
    "2.0.0",
    "10.0.0",
    "18446744073709551616.0.0",
]

EQUAL = [
    ("1.0.0+a", "1.0.0+b"),
    ("1.0.0+001", "1.0.0"),
    ("1.0.0-rc.1+build.5", "1.0.0-rc.1"),
    ("1.0.0-rc.1+exp.sha.5114f85", "1.0.0-rc.1+20130313144700"),
    ("0.0.0", "0.0.0"),
]

INVALID = [
    "",
    "1",
    "1.2",
    "1.2.3.4",
    "01.2.3",
    "1.02.3",
    "1.2.03",
    "v1.2.3",
    " 1.2.3",
    "1.2.3 ",
    "1.2.3\n",
    "1.2.3-",
    "1.2.3+",
    "1.2.3-+b",
    "1.2.3++b",
    "1.2.3-alpha..1",
    "1.2.3-.alpha",
    "1.2.3-alpha.",
    "1.2.3-01",
    "1.2.3-alpha.01",
    "1.2.3+build..1",
    "1.2.3+build.",
    "1.2.3-al_pha",
    "1.2.3-é",
    "-1.2.3",
    "1.-2.3",
    "1.2.3-a b",
    "a.b.c",
    "\uff11.2.3",
    "1.2.\u0663",
    "1.2.3-\u0663",
    "1..3",
    "1.2.3+b+c",
]


class HiddenTest(unittest.TestCase):
    def test_ascending_chain_every_pair(self):
        for (i, a), (j, b) in itertools.product(enumerate(ASCENDING), repeat=2):
            want = (i > j) - (i < j)
            got = compare(a, b)
            self.assertIs(type(got), int, (a, b))
            self.assertEqual(got, want, f"compare({a!r}, {b!r})")

    def test_build_metadata_ignored(self):
        for a, b in EQUAL:
            self.assertEqual(compare(a, b), 0, (a, b))
            self.assertEqual(compare(b, a), 0, (b, a))
        self.assertEqual(compare("1.0.0+build", "1.0.0-rc"), 1)
        self.assertEqual(compare("1.0.0-rc+zzz", "1.0.0+aaa"), -1)

    def test_invalid_raises_value_error(self):
        for bad in INVALID:
            with self.assertRaises(ValueError, msg=repr(bad)):
                compare(bad, "1.0.0")
            with self.assertRaises(ValueError, msg=repr(bad)):
                compare("1.0.0", bad)

    def test_valid_edge_syntax(self):
        for good in [
            "0.0.0",
            "1.0.0-0",
            "1.0.0-alpha.0a",
            "1.0.0-x.7.z.92",
            "1.0.0--",
            "1.0.0+-",
            "1.0.0-0.3.7",
            "1.0.0+21AF26D3----117B344092BD",
        ]:
            self.assertEqual(compare(good, good), 0, good)


if __name__ == "__main__":
    unittest.main()
