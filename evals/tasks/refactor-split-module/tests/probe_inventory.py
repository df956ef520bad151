"""What the checks need of the workspace's inventory/, as plain values: run in judge.py's child, next to it.

It asserts nothing: judge_inventory.py, in the judge's own process, compares these values with the
right ones, which the child never sees. Times are reported as ISO strings.
"""

import importlib
import json
import subprocess
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

LAYOUT = {
    "models": ["set_clock", "now", "InventoryError", "UnknownItem", "OutOfStock", "Item", "StockMovement", "Warehouse"],
    "storage": ["warehouse_to_dict", "warehouse_from_dict", "save_json", "load_json", "save_csv", "load_csv"],
    "reports": ["money", "format_table", "stock_report", "low_stock", "valuation", "movement_summary"],
    "cli": ["main"],
}
HERE = Path(__file__).resolve().parent
T0 = datetime(2026, 1, 5, 9, 30, tzinfo=UTC)


def raised(call, *args, **kwargs) -> str | None:
    """The name of the class of what `call` raised, or None."""
    try:
        call(*args, **kwargs)
    except Exception as exc:
        return type(exc).__name__
    return None


def layout() -> dict:
    """Where each public name is defined, whether the package re-exports that very object, one clock."""
    inventory = importlib.import_module("inventory")
    seen: dict = {"package file": str(Path(inventory.__file__).resolve().relative_to(HERE))}
    for module_name, names in LAYOUT.items():
        module = importlib.import_module(f"inventory.{module_name}")
        for name in names:
            obj = getattr(module, name, None)
            seen[f"{module_name}.{name}"] = [
                getattr(obj, "__module__", None),
                module_name == "cli" or getattr(inventory, name, None) is obj,
            ]
    storage = importlib.import_module("inventory.storage")
    seen["constants re-exported"] = [
        getattr(inventory, n, None) == getattr(storage, n) for n in ("SCHEMA_VERSION", "CSV_FIELDS")
    ]
    pinned = datetime(2030, 1, 1, tzinfo=UTC)
    inventory.set_clock(lambda: pinned)
    w = inventory.Warehouse("x")
    w.add_item(inventory.Item("A", "a", 1))
    seen["clock"] = [w.receive("A", 1).at.isoformat(), importlib.import_module("inventory.models").now().isoformat()]
    return seen


def sample(inv):
    w = inv.Warehouse("north")
    w.add_item(inv.Item("B2", "bracket", 350, reorder_level=10))
    w.add_item(inv.Item("A1", "bolt", 25, reorder_level=50))
    w.add_item(inv.Item("C3", "cog", 1299, reorder_level=2))
    w.receive("A1", 400)
    w.receive("B2", 8)
    w.receive("C3", 12)
    w.ship("C3", 2)
    return w


def unit() -> dict:
    """The cases of test_inventory.py, each a value."""
    import inventory as inv

    inv.set_clock(lambda: T0)
    seen: dict = {}
    w = sample(inv)
    seen["movement times"] = [m.at.isoformat() for m in w.movements] + [inv.StockMovement("A1", 1, "x").at.isoformat()]
    seen["C3 quantity"], seen["total value"] = w.get("C3").quantity, w.total_value()
    seen["adjust to the same"] = w.adjust("A1", 400)
    seen["adjust delta"] = w.adjust("A1", 390).delta
    seen["skus"] = [item.sku for item in w]
    w = sample(inv)
    seen["errors"] = [
        raised(w.ship, "B2", 9),
        raised(w.receive, "Z9", 1),
        raised(w.add_item, inv.Item("A1", "again", 1)),
    ]
    seen["error classes"] = [issubclass(c, inv.InventoryError) for c in (inv.OutOfStock, inv.UnknownItem)]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "w.json"
        inv.save_json(sample(inv), path)
        seen["json schema"] = json.loads(path.read_text())["schema"] == inv.SCHEMA_VERSION
        loaded = inv.load_json(path)
        seen["json loaded"] = [loaded.get("C3").quantity, len(loaded.movements), loaded.movements[-1].at.isoformat()]
        path.write_text(
            json.dumps({"name": "old", "items": [{"sku": "A1", "name": "bolt", "unit_cost": 25, "stock": 7}]})
        )
        loaded = inv.load_json(path)
        seen["schema 1"] = [loaded.get("A1").quantity, len(loaded.movements)]
        path.write_text(json.dumps({"schema": inv.SCHEMA_VERSION + 1, "name": "x", "items": []}))
        seen["newer schema"] = isinstance(_exception(inv.load_json, path), inv.InventoryError)
        csv = Path(tmp) / "w.csv"
        inv.save_csv(sample(inv), csv)
        loaded = inv.load_csv(csv, "copy")
        seen["csv loaded"] = [loaded.name, loaded.get("B2").to_dict() == sample(inv).get("B2").to_dict()]
        csv.write_text("sku,name\nA1,bolt\n")
        seen["bad csv"] = isinstance(_exception(inv.load_csv, csv), inv.InventoryError)
    seen["money"] = [inv.money(123456), inv.money(-5)]
    seen["table"] = inv.format_table(["A", "Num"], [["x", "1"], ["yy", "10"]])
    seen["stock report"] = inv.stock_report(sample(inv))
    w = sample(inv)
    seen["low stock"] = [item.sku for item in inv.low_stock(w)]
    seen["valuation"] = inv.valuation(w, top=2)
    inv.set_clock(lambda: T0 + timedelta(days=1))
    w.ship("A1", 100)
    seen["movement summary"] = [inv.movement_summary(w), inv.movement_summary(w, since=T0 + timedelta(hours=1))]
    inv.set_clock(lambda: T0)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "w.json"
        inv.save_json(sample(inv), path)
        runs = {command: _cli(command, str(path)) for command in ("report", "value", "low")}
    seen["cli report"] = [runs["report"].returncode, runs["report"].stdout == inv.stock_report(sample(inv))]
    seen["cli value"], seen["cli low"] = runs["value"].stdout, runs["low"].stdout
    missing = _cli("report", "/nonexistent/w.json")
    seen["cli missing file"] = [missing.returncode, "inventory:" in missing.stderr]
    return seen


def _exception(call, *args) -> BaseException | None:
    try:
        call(*args)
    except Exception as exc:
        return exc
    return None


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "inventory", *args], cwd=HERE, capture_output=True, text=True, timeout=30
    )
