import unittest

from crm import Account, Store, summary
from crm.report import by_domain


class CrmTest(unittest.TestCase):
    def setUp(self):
        self.store = Store()
        self.store.add(Account("ben", "ben@Example.org"))
        self.store.add(Account("ana", "ana@example.com", tags={"vip"}))
        self.store.add(Account("cy", "cy@example.com", active=False))

    def test_repr_and_domain(self):
        record = self.store.get("ana")
        self.assertEqual(repr(record), "Account('ana', 'ana@example.com')")
        self.assertEqual(self.store.get("ben").domain(), "example.org")

    def test_store_rules(self):
        with self.assertRaises(KeyError):
            self.store.add(Account("ana", "other@example.com"))
        with self.assertRaises(TypeError):
            self.store.add({"handle": "dan"})

    def test_summary(self):
        self.assertEqual([r.handle for r in self.store.active()], ["ana", "ben"])
        self.assertEqual(by_domain(self.store.active()), {"example.com": 1, "example.org": 1})
        self.assertEqual(summary(self.store), "2 active users: example.com 1, example.org 1")


if __name__ == "__main__":
    unittest.main()
