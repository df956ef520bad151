"""Check the package layout: every public name is defined in its module and re-exported.

Run with the candidate package's parent directory as the working directory.
"""

import ast
import importlib
import sys
from datetime import UTC, datetime
from pathlib import Path

LAYOUT = {
    "models": ["set_clock", "now", "InventoryError", "UnknownItem", "OutOfStock", "Item", "StockMovement", "Warehouse"],
    "storage": ["warehouse_to_dict", "warehouse_from_dict", "save_json", "load_json", "save_csv", "load_csv"],
    "reports": ["money", "format_table", "stock_report", "low_stock", "valuation", "movement_summary"],
    "cli": ["main"],
}
CONSTANTS = {"storage": ["SCHEMA_VERSION", "CSV_FIELDS"]}


def main() -> None:
    sys.path.insert(0, ".")
    package = Path("inventory")
    assert not Path("inventory.py").exists(), "inventory.py still exists"
    for name in ["__init__", "models", "storage", "reports", "cli", "__main__"]:
        assert (package / f"{name}.py").is_file(), f"inventory/{name}.py is missing"
    for path in package.glob("*.py"):
        lines = len(path.read_text().splitlines())
        assert lines <= 220, f"{path} has {lines} lines: the split should be even"

    tree = ast.parse((package / "__init__.py").read_text())
    for node in tree.body:
        allowed = (
            isinstance(node, (ast.Import, ast.ImportFrom))
            or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
            or (isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["__all__"])
        )
        assert allowed, f"inventory/__init__.py line {node.lineno} is not a re-export"

    inventory = importlib.import_module("inventory")
    assert Path(inventory.__file__).resolve().parent == package.resolve(), "imported the wrong inventory"
    for module_name, names in LAYOUT.items():
        module = importlib.import_module(f"inventory.{module_name}")
        for name in names:
            obj = getattr(module, name, None)
            assert obj is not None, f"inventory.{module_name}.{name} is missing"
            assert obj.__module__ == f"inventory.{module_name}", f"{name} is defined in {obj.__module__}"
            if module_name != "cli":
                assert getattr(inventory, name, None) is obj, f"inventory.{name} is not re-exported"
    for module_name, names in CONSTANTS.items():
        module = importlib.import_module(f"inventory.{module_name}")
        for name in names:
            assert getattr(inventory, name) == getattr(module, name), f"inventory.{name}"

    # One clock, shared: set_clock through the package reaches movements made by models.
    pinned = datetime(2030, 1, 1, tzinfo=UTC)
    inventory.set_clock(lambda: pinned)
    w = inventory.Warehouse("x")
    w.add_item(inventory.Item("A", "a", 1))
    assert w.receive("A", 1).at == pinned, "set_clock does not control new movements"
    assert importlib.import_module("inventory.models").now() == pinned
    print("layout OK")


if __name__ == "__main__":
    main()
