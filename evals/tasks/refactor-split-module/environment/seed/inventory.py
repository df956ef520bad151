"""Inventory of a small warehouse: items, stock movements, JSON/CSV storage and reports.

Use it as a library (``from inventory import Warehouse, save_json``) or from the shell:
``python3 -m inventory report stock.json``.
"""

import argparse
import csv
import json
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

# ---------------------------------------------------------------------------
# Models
# ---------------------------------------------------------------------------

_clock: Callable[[], datetime] = lambda: datetime.now(UTC)  # noqa: E731


def set_clock(clock: Callable[[], datetime]) -> None:
    """Make ``now()`` (and so every new StockMovement) use ``clock``; tests pin the time."""
    global _clock
    _clock = clock


def now() -> datetime:
    """Return the current time from the configured clock (timezone-aware UTC)."""
    return _clock()


class InventoryError(Exception):
    """Base class of the errors this module raises."""


class UnknownItem(InventoryError):
    """The SKU is not in the warehouse."""


class OutOfStock(InventoryError):
    """A shipment asks for more units than are in stock."""


@dataclass
class Item:
    """One stock-keeping unit. ``unit_cost`` is in cents to keep the arithmetic exact."""

    sku: str
    name: str
    unit_cost: int
    quantity: int = 0
    reorder_level: int = 0

    def value(self) -> int:
        """Return the stock value of this item in cents."""
        return self.unit_cost * self.quantity

    def needs_reorder(self) -> bool:
        return self.quantity <= self.reorder_level

    def to_dict(self) -> dict:
        return {
            "sku": self.sku,
            "name": self.name,
            "unit_cost": self.unit_cost,
            "quantity": self.quantity,
            "reorder_level": self.reorder_level,
        }

    @classmethod
    def from_dict(cls, data: dict) -> "Item":
        return cls(
            sku=data["sku"],
            name=data["name"],
            unit_cost=int(data["unit_cost"]),
            quantity=int(data.get("quantity", 0)),
            reorder_level=int(data.get("reorder_level", 0)),
        )


@dataclass
class StockMovement:
    """A change of stock: ``delta`` units of ``sku`` (negative when shipped) at time ``at``."""

    sku: str
    delta: int
    reason: str
    at: datetime = field(default_factory=now)

    def to_dict(self) -> dict:
        return {"sku": self.sku, "delta": self.delta, "reason": self.reason, "at": self.at.isoformat()}

    @classmethod
    def from_dict(cls, data: dict) -> "StockMovement":
        return cls(data["sku"], int(data["delta"]), data["reason"], datetime.fromisoformat(data["at"]))


class Warehouse:
    """Items by SKU plus the history of every stock movement.

    ``w = Warehouse("main"); w.add_item(Item("A1", "bolt", 25)); w.receive("A1", 100)``
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.items: dict[str, Item] = {}
        self.movements: list[StockMovement] = []

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[Item]:
        return iter(sorted(self.items.values(), key=lambda item: item.sku))

    def add_item(self, item: Item) -> None:
        if item.sku in self.items:
            raise InventoryError(f"duplicate SKU {item.sku}")
        self.items[item.sku] = item

    def get(self, sku: str) -> Item:
        try:
            return self.items[sku]
        except KeyError:
            raise UnknownItem(sku) from None

    def _move(self, sku: str, delta: int, reason: str) -> StockMovement:
        item = self.get(sku)
        if item.quantity + delta < 0:
            raise OutOfStock(f"{sku}: {item.quantity} in stock, {-delta} requested")
        item.quantity += delta
        movement = StockMovement(sku, delta, reason)
        self.movements.append(movement)
        return movement

    def receive(self, sku: str, quantity: int, reason: str = "received") -> StockMovement:
        if quantity <= 0:
            raise ValueError("quantity must be positive")
        return self._move(sku, quantity, reason)

    def ship(self, sku: str, quantity: int, reason: str = "shipped") -> StockMovement:
        if quantity <= 0:
            raise ValueError("quantity must be positive")
        return self._move(sku, -quantity, reason)

    def adjust(self, sku: str, counted: int) -> StockMovement | None:
        """Record a stock count: move the difference, or nothing when the count matches."""
        delta = counted - self.get(sku).quantity
        return self._move(sku, delta, "stock count") if delta else None

    def total_value(self) -> int:
        return sum(item.value() for item in self.items.values())


# ---------------------------------------------------------------------------
# Storage
# ---------------------------------------------------------------------------

SCHEMA_VERSION = 2
CSV_FIELDS = ["sku", "name", "unit_cost", "quantity", "reorder_level"]


def warehouse_to_dict(warehouse: Warehouse) -> dict:
    return {
        "schema": SCHEMA_VERSION,
        "name": warehouse.name,
        "items": [item.to_dict() for item in warehouse],
        "movements": [movement.to_dict() for movement in warehouse.movements],
    }


def _migrate(data: dict) -> dict:
    """Upgrade an older file in memory: schema 1 called the quantity "stock" and had no movements."""
    schema = data.get("schema", 1)
    if schema > SCHEMA_VERSION:
        raise InventoryError(f"file has schema {schema}, this version reads up to {SCHEMA_VERSION}")
    if schema == 1:
        data = dict(data)
        data["items"] = [
            {**{k: v for k, v in item.items() if k != "stock"}, "quantity": item.get("stock", 0)}
            for item in data["items"]
        ]
        data["movements"] = []
        data["schema"] = SCHEMA_VERSION
    return data


def warehouse_from_dict(data: dict) -> Warehouse:
    data = _migrate(data)
    warehouse = Warehouse(data["name"])
    for item in data["items"]:
        warehouse.add_item(Item.from_dict(item))
    warehouse.movements = [StockMovement.from_dict(m) for m in data["movements"]]
    return warehouse


def save_json(warehouse: Warehouse, path: str | Path) -> None:
    """Write the warehouse (items and movements) to ``path`` as JSON."""
    Path(path).write_text(json.dumps(warehouse_to_dict(warehouse), indent=2) + "\n", encoding="utf-8")


def load_json(path: str | Path) -> Warehouse:
    """Read a warehouse written by ``save_json`` (any schema up to SCHEMA_VERSION)."""
    return warehouse_from_dict(json.loads(Path(path).read_text(encoding="utf-8")))


def save_csv(warehouse: Warehouse, path: str | Path) -> None:
    """Write the items (not the movements) to ``path`` as CSV, one row per SKU."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for item in warehouse:
            writer.writerow(item.to_dict())


def load_csv(path: str | Path, name: str = "imported") -> Warehouse:
    """Read items from a CSV with the columns of CSV_FIELDS into a new warehouse called ``name``."""
    warehouse = Warehouse(name)
    with open(path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            missing = [column for column in CSV_FIELDS if column not in row]
            if missing:
                raise InventoryError(f"{path}: missing columns {missing}")
            warehouse.add_item(Item.from_dict(row))
    return warehouse


# ---------------------------------------------------------------------------
# Reports
# ---------------------------------------------------------------------------


def money(cents: int) -> str:
    """Format cents as dollars: ``money(123456)`` is ``"1,234.56"``."""
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}{cents // 100:,}.{cents % 100:02d}"


def format_table(headers: list[str], rows: list[list[str]]) -> str:
    """Return a plain-text table; columns are as wide as their widest cell, numbers right-aligned."""
    widths = [len(h) for h in headers]
    for row in rows:
        widths = [max(w, len(cell)) for w, cell in zip(widths, row, strict=True)]

    def line(cells: list[str]) -> str:
        out = []
        for cell, width in zip(cells, widths, strict=True):
            numeric = cell.replace(",", "").replace(".", "").lstrip("-").isdigit()
            out.append(cell.rjust(width) if numeric else cell.ljust(width))
        return "  ".join(out).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(headers), rule, *(line(row) for row in rows)]) + "\n"


def stock_report(warehouse: Warehouse) -> str:
    """Return the stock table of every item, then the total value."""
    rows = [[item.sku, item.name, str(item.quantity), money(item.unit_cost), money(item.value())] for item in warehouse]
    table = format_table(["SKU", "Name", "Qty", "Unit", "Value"], rows)
    return f"Warehouse {warehouse.name}\n\n{table}\nTotal value: {money(warehouse.total_value())}\n"


def low_stock(warehouse: Warehouse) -> list[Item]:
    """Return the items at or below their reorder level, lowest quantity first."""
    return sorted((item for item in warehouse if item.needs_reorder()), key=lambda i: (i.quantity, i.sku))


def valuation(warehouse: Warehouse, top: int = 3) -> dict:
    """Return the total value and the ``top`` SKUs by stock value (cents)."""
    ranked = sorted(warehouse, key=lambda item: (-item.value(), item.sku))
    return {
        "total": warehouse.total_value(),
        "top": [(item.sku, item.value()) for item in ranked[:top]],
    }


def movement_summary(warehouse: Warehouse, since: datetime | None = None) -> dict[str, int]:
    """Return the net quantity change per SKU, over the movements at or after ``since``."""
    summary: dict[str, int] = {}
    for movement in warehouse.movements:
        if since is None or movement.at >= since:
            summary[movement.sku] = summary.get(movement.sku, 0) + movement.delta
    return dict(sorted(summary.items()))


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """``python3 -m inventory {report,low,value} FILE.json``: print a report, return the exit code."""
    parser = argparse.ArgumentParser(prog="inventory")
    parser.add_argument("command", choices=["report", "low", "value"])
    parser.add_argument("file")
    args = parser.parse_args(argv)
    try:
        warehouse = load_json(args.file)
    except (OSError, InventoryError, ValueError) as exc:
        print(f"inventory: {exc}", file=sys.stderr)
        return 1
    if args.command == "report":
        sys.stdout.write(stock_report(warehouse))
    elif args.command == "low":
        for item in low_stock(warehouse):
            print(f"{item.sku}\t{item.quantity}\t(reorder at {item.reorder_level})")
    else:
        result = valuation(warehouse)
        print(f"total\t{money(result['total'])}")
        for sku, value in result["top"]:
            print(f"{sku}\t{money(value)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
