#!/usr/bin/env bash
# Cut inventory.py along its section markers into one module per section, give each module the
# imports it needs, re-export everything from __init__.py, then delete the old module.
set -euo pipefail
mkdir -p inventory
python3 - <<'PY'
import re
from pathlib import Path

source = Path("inventory.py").read_text()
# Sections are delimited by "# ----" / "# Title" / "# ----" banners.
parts = re.split(r"\n# -{20,}\n# (\w[\w ]*)\n# -{20,}\n", source)
sections = dict(zip(parts[1::2], (body.strip("\n") for body in parts[2::2])))
cli_body = sections["Command line"].split('\n\nif __name__ == "__main__":')[0]

modules = {
    "models": (
        '"""Inventory models: items, stock movements, the warehouse, and the clock they use."""\n\n'
        "from collections.abc import Callable, Iterator\n"
        "from dataclasses import dataclass, field\n"
        "from datetime import UTC, datetime\n",
        sections["Models"],
    ),
    "storage": (
        '"""Save and load warehouses as JSON (with schema migration) or CSV."""\n\n'
        "import csv\nimport json\nfrom pathlib import Path\n\n"
        "from .models import InventoryError, Item, StockMovement, Warehouse\n",
        sections["Storage"],
    ),
    "reports": (
        '"""Text reports over a warehouse: stock table, low stock, valuation, movements."""\n\n'
        "from datetime import datetime\n\n"
        "from .models import Item, Warehouse\n",
        sections["Reports"],
    ),
    "cli": (
        '"""The command line: ``python3 -m inventory {report,low,value} FILE.json``."""\n\n'
        "import argparse\nimport sys\n\n"
        "from .models import InventoryError\n"
        "from .reports import low_stock, money, stock_report, valuation\n"
        "from .storage import load_json\n",
        cli_body,
    ),
}
for name, (header, body) in modules.items():
    Path(f"inventory/{name}.py").write_text(f"{header}\n\n{body}\n")

Path("inventory/__main__.py").write_text(
    '"""Run the command line: ``python3 -m inventory report stock.json``."""\n\n'
    "import sys\n\nfrom .cli import main\n\nsys.exit(main())\n"
)
Path("inventory/__init__.py").write_text(
    '"""Inventory of a small warehouse: items, stock movements, JSON/CSV storage and reports.\n\n'
    "Use it as a library (``from inventory import Warehouse, save_json``) or from the shell:\n"
    '``python3 -m inventory report stock.json``.\n"""\n\n'
    "from .models import (\n    InventoryError,\n    Item,\n    OutOfStock,\n    StockMovement,\n"
    "    UnknownItem,\n    Warehouse,\n    now,\n    set_clock,\n)\n"
    "from .reports import format_table, low_stock, money, movement_summary, stock_report, valuation\n"
    "from .storage import (\n    CSV_FIELDS,\n    SCHEMA_VERSION,\n    load_csv,\n    load_json,\n"
    "    save_csv,\n    save_json,\n    warehouse_from_dict,\n    warehouse_to_dict,\n)\n"
)
PY
rm inventory.py
python3 -m unittest -q test_inventory
