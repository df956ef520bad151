"""Hidden checks for paginate(): run with the workspace's pager.py on sys.path."""

import unittest

from pager import paginate


class HiddenPagerTest(unittest.TestCase):
    def test_pages_partition_the_items(self):
        for total in range(0, 30):
            items = [f"item{i}" for i in range(total)]
            for per_page in range(1, 12):
                pages = []
                page = 1
                while True:
                    chunk = paginate(items, page, per_page)
                    if not chunk:
                        break
                    self.assertLessEqual(len(chunk), per_page)
                    pages.extend(chunk)
                    page += 1
                    self.assertLess(page, 100)
                self.assertEqual(pages, items, (total, per_page))

    def test_exact_pages(self):
        items = list("abcdefghij")
        self.assertEqual(paginate(items, 1, 3), ["a", "b", "c"])
        self.assertEqual(paginate(items, 2, 3), ["d", "e", "f"])
        self.assertEqual(paginate(items, 4, 3), ["j"])
        self.assertEqual(paginate(items, 5, 3), [])
        self.assertEqual(paginate(items, 1, 10), items)
        self.assertEqual(paginate(items, 2, 10), [])
        self.assertEqual(paginate([], 1, 5), [])

    def test_invalid_arguments(self):
        for page, per_page in [(0, 3), (-1, 3), (1, 0), (2, -5)]:
            with self.assertRaises(ValueError):
                paginate([1, 2, 3], page, per_page)


if __name__ == "__main__":
    unittest.main()
