import unittest

from pager import page_count, paginate


class PagerTest(unittest.TestCase):
    def test_pages_do_not_overlap(self):
        items = list(range(1, 26))
        self.assertEqual(paginate(items, 1, 10), list(range(1, 11)))
        self.assertEqual(paginate(items, 2, 10), list(range(11, 21)))
        self.assertEqual(paginate(items, 3, 10), list(range(21, 26)))

    def test_page_count(self):
        self.assertEqual(page_count(25, 10), 3)


if __name__ == "__main__":
    unittest.main()
