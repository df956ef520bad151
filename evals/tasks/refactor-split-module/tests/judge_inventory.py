"""Run by judge.py in its own process: the package's files, read here as text, and the values
probe_inventory.py reports from the child, against the right ones.

WORK (in the judge's environment) is the folder holding the copy of inventory/.
"""

import ast
import os
import unittest
from pathlib import Path

import probe_inventory  # a stand-in: each call runs in the child

LAYOUT = {
    "models": ["set_clock", "now", "InventoryError", "UnknownItem", "OutOfStock", "Item", "StockMovement", "Warehouse"],
    "storage": ["warehouse_to_dict", "warehouse_from_dict", "save_json", "load_json", "save_csv", "load_csv"],
    "reports": ["money", "format_table", "stock_report", "low_stock", "valuation", "movement_summary"],
    "cli": ["main"],
}
PLACES = {
    "package file": "inventory/__init__.py",
    **{f"{module}.{name}": [f"inventory.{module}", True] for module, names in LAYOUT.items() for name in names},
    "constants re-exported": [True, True],
    "clock": ["2030-01-01T00:00:00+00:00", "2030-01-01T00:00:00+00:00"],
}
T0 = "2026-01-05T09:30:00+00:00"
UNIT = {
    "movement times": [T0] * 5,
    "C3 quantity": 10,
    "total value": 400 * 25 + 8 * 350 + 10 * 1299,
    "adjust to the same": None,
    "adjust delta": -10,
    "skus": ["A1", "B2", "C3"],
    "errors": ["OutOfStock", "UnknownItem", "InventoryError"],
    "error classes": [True, True],
    "json schema": True,
    "json loaded": [10, 4, T0],
    "schema 1": [7, 0],
    "newer schema": True,
    "csv loaded": ["copy", True],
    "bad csv": True,
    "money": ["1,234.56", "-0.05"],
    "table": "A   Num\n--  ---\nx     1\nyy   10\n",
    "stock report": "Warehouse north\n\n"
    "SKU  Name     Qty  Unit   Value\n"
    "---  -------  ---  -----  ------\n"
    "A1   bolt     400   0.25  100.00\n"
    "B2   bracket    8   3.50   28.00\n"
    "C3   cog       10  12.99  129.90\n"
    "\nTotal value: 257.90\n",
    "low stock": ["B2"],
    "valuation": {"total": 25790, "top": [("C3", 12990), ("A1", 10000)]},
    "movement summary": [{"A1": 300, "B2": 8, "C3": 10}, {"A1": -100}],
    "cli report": [0, True],
    "cli value": "total\t257.90\nC3\t129.90\nA1\t100.00\nB2\t28.00\n",
    "cli low": "B2\t8\t(reorder at 10)\n",
    "cli missing file": [1, True],
}


class SplitTest(unittest.TestCase):
    maxDiff = None

    def test_the_files(self):
        work = Path(os.environ["WORK"])
        self.assertFalse((work / "inventory.py").exists(), "inventory.py still exists")
        for name in ["__init__", "models", "storage", "reports", "cli", "__main__"]:
            self.assertTrue((work / "inventory" / f"{name}.py").is_file(), f"inventory/{name}.py is missing")
        for path in (work / "inventory").glob("*.py"):
            lines = len(path.read_text().splitlines())
            self.assertLessEqual(lines, 220, f"{path.name} has {lines} lines: the split should be even")
        for node in ast.parse((work / "inventory" / "__init__.py").read_text()).body:
            allowed = (
                isinstance(node, (ast.Import, ast.ImportFrom))
                or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
                or (isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["__all__"])
            )
            self.assertTrue(allowed, f"inventory/__init__.py line {node.lineno} is not a re-export")

    def test_every_name_in_its_module_and_one_clock(self):
        self.assertEqual(probe_inventory.layout(), PLACES)

    def test_the_cases_of_test_inventory(self):
        self.assertEqual(probe_inventory.unit(), UNIT)


if __name__ == "__main__":
    unittest.main()
