"""Hidden checks: the renamed key drives the pool, the old key is gone from the defaults."""

import json
import tempfile
import unittest
from pathlib import Path

from pool import ConnectionPool, PoolExhausted
from settings import load_settings


class RenamedKeyTest(unittest.TestCase):
    def test_defaults_use_new_key(self):
        settings = load_settings()
        self.assertEqual(settings["max_connections"], 10)
        self.assertNotIn("max_conn", settings)
        self.assertEqual(settings["max_conn_per_host"], 4)

    def test_user_file_with_new_key(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "user.json"
            path.write_text(json.dumps({"max_connections": 3, "max_conn_per_host": 1}))
            pool = ConnectionPool(load_settings(str(path)))
        for host in "abc":
            pool.acquire(host)
        with self.assertRaises(PoolExhausted) as caught:
            pool.acquire("d")
        self.assertIn("max_connections", str(caught.exception))

    def test_validation_names_new_key(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "user.json"
            path.write_text(json.dumps({"max_connections": 0}))
            with self.assertRaises(ValueError) as caught:
                load_settings(str(path))
        self.assertIn("max_connections", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
