import json
import tempfile
import unittest
from pathlib import Path

from pool import ConnectionPool, PoolExhausted
from settings import load_settings


class PoolTest(unittest.TestCase):
    def test_defaults(self):
        settings = load_settings()
        self.assertEqual(settings["max_conn"], 10)
        self.assertEqual(settings["max_conn_per_host"], 4)

    def test_user_file_overrides_limits(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "user.json"
            path.write_text(json.dumps({"max_conn": 2, "max_conn_per_host": 2}))
            pool = ConnectionPool(load_settings(str(path)))
        pool.acquire("a")
        pool.acquire("b")
        with self.assertRaises(PoolExhausted):
            pool.acquire("c")

    def test_per_host_limit(self):
        pool = ConnectionPool(load_settings())
        for _ in range(4):
            pool.acquire("db")
        with self.assertRaises(PoolExhausted):
            pool.acquire("db")


if __name__ == "__main__":
    unittest.main()
