import json
import subprocess
import sys
import tempfile
import unittest
from datetime import UTC, datetime, timedelta
from pathlib import Path

from inventory import (
    SCHEMA_VERSION,
    InventoryError,
    Item,
    OutOfStock,
    StockMovement,
    UnknownItem,
    Warehouse,
    format_table,
    load_csv,
    load_json,
    low_stock,
    money,
    movement_summary,
    save_csv,
    save_json,
    set_clock,
    stock_report,
    valuation,
)

HERE = Path(__file__).resolve().parent
T0 = datetime(2026, 1, 5, 9, 30, tzinfo=UTC)


def sample() -> Warehouse:
    w = Warehouse("north")
    w.add_item(Item("B2", "bracket", 350, reorder_level=10))
    w.add_item(Item("A1", "bolt", 25, reorder_level=50))
    w.add_item(Item("C3", "cog", 1299, reorder_level=2))
    w.receive("A1", 400)
    w.receive("B2", 8)
    w.receive("C3", 12)
    w.ship("C3", 2)
    return w


class ClockedTest(unittest.TestCase):
    def setUp(self):
        set_clock(lambda: T0)
        self.addCleanup(set_clock, lambda: datetime.now(UTC))


class ModelTest(ClockedTest):
    def test_movements_use_the_clock(self):
        w = sample()
        self.assertEqual([m.at for m in w.movements], [T0] * 4)
        self.assertEqual(StockMovement("A1", 1, "x").at, T0)

    def test_stock_changes(self):
        w = sample()
        self.assertEqual(w.get("C3").quantity, 10)
        self.assertEqual(w.total_value(), 400 * 25 + 8 * 350 + 10 * 1299)
        self.assertIsNone(w.adjust("A1", 400))
        self.assertEqual(w.adjust("A1", 390).delta, -10)
        self.assertEqual([item.sku for item in w], ["A1", "B2", "C3"])

    def test_errors(self):
        w = sample()
        with self.assertRaises(OutOfStock):
            w.ship("B2", 9)
        with self.assertRaises(UnknownItem):
            w.receive("Z9", 1)
        with self.assertRaises(InventoryError):
            w.add_item(Item("A1", "again", 1))
        self.assertTrue(issubclass(OutOfStock, InventoryError))


class StorageTest(ClockedTest):
    def test_json_round_trip(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "w.json"
            save_json(sample(), path)
            data = json.loads(path.read_text())
            self.assertEqual(data["schema"], SCHEMA_VERSION)
            loaded = load_json(path)
        self.assertEqual(loaded.get("C3").quantity, 10)
        self.assertEqual(len(loaded.movements), 4)
        self.assertEqual(loaded.movements[-1].at, T0)

    def test_reads_schema_1(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "old.json"
            path.write_text(
                json.dumps({"name": "old", "items": [{"sku": "A1", "name": "bolt", "unit_cost": 25, "stock": 7}]})
            )
            loaded = load_json(path)
        self.assertEqual(loaded.get("A1").quantity, 7)
        self.assertEqual(loaded.movements, [])

    def test_rejects_newer_schema(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "new.json"
            path.write_text(json.dumps({"schema": SCHEMA_VERSION + 1, "name": "x", "items": []}))
            with self.assertRaises(InventoryError):
                load_json(path)

    def test_csv_round_trip(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "w.csv"
            save_csv(sample(), path)
            loaded = load_csv(path, "copy")
            path.write_text("sku,name\nA1,bolt\n")
            with self.assertRaises(InventoryError):
                load_csv(path)
        self.assertEqual(loaded.name, "copy")
        self.assertEqual(loaded.get("B2").to_dict(), sample().get("B2").to_dict())


class ReportTest(ClockedTest):
    def test_money_and_table(self):
        self.assertEqual(money(123456), "1,234.56")
        self.assertEqual(money(-5), "-0.05")
        self.assertEqual(format_table(["A", "Num"], [["x", "1"], ["yy", "10"]]), "A   Num\n--  ---\nx     1\nyy   10\n")

    def test_stock_report(self):
        self.assertEqual(
            stock_report(sample()),
            "Warehouse north\n\n"
            "SKU  Name     Qty  Unit   Value\n"
            "---  -------  ---  -----  ------\n"
            "A1   bolt     400   0.25  100.00\n"
            "B2   bracket    8   3.50   28.00\n"
            "C3   cog       10  12.99  129.90\n"
            "\nTotal value: 257.90\n",
        )

    def test_low_stock_and_valuation(self):
        w = sample()
        self.assertEqual([item.sku for item in low_stock(w)], ["B2"])
        self.assertEqual(valuation(w, top=2), {"total": 25790, "top": [("C3", 12990), ("A1", 10000)]})

    def test_movement_summary(self):
        w = sample()
        set_clock(lambda: T0 + timedelta(days=1))
        w.ship("A1", 100)
        self.assertEqual(movement_summary(w), {"A1": 300, "B2": 8, "C3": 10})
        self.assertEqual(movement_summary(w, since=T0 + timedelta(hours=1)), {"A1": -100})


class CommandLineTest(ClockedTest):
    def run_cli(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "inventory", *args], cwd=HERE, capture_output=True, text=True, timeout=30
        )

    def test_report_and_value(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "w.json"
            save_json(sample(), path)
            report = self.run_cli("report", str(path))
            value = self.run_cli("value", str(path))
            low = self.run_cli("low", str(path))
        self.assertEqual(report.returncode, 0, report.stderr)
        self.assertEqual(report.stdout, stock_report(sample()))
        self.assertEqual(value.stdout, "total\t257.90\nC3\t129.90\nA1\t100.00\nB2\t28.00\n")
        self.assertEqual(low.stdout, "B2\t8\t(reorder at 10)\n")

    def test_missing_file(self):
        result = self.run_cli("report", "/nonexistent/w.json")
        self.assertEqual(result.returncode, 1)
        self.assertIn("inventory:", result.stderr)


if __name__ == "__main__":
    unittest.main()
