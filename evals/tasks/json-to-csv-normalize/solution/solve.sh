#!/usr/bin/env bash
# A small converter: one function per derived column, csv.DictWriter for the quoting.
set -euo pipefail
cat > convert.py <<'PY'
"""Flatten orders.json into orders.csv: python3 convert.py"""

import csv
import json
from datetime import datetime, timezone
from decimal import Decimal

COLUMNS = ["id", "customer_name", "customer_email", "city", "country",
           "units", "total", "currency", "created_at", "status"]


def dig(record, *path):
    """record[path[0]][path[1]]…, or None as soon as a step is missing or null."""
    for key in path:
        if not isinstance(record, dict):
            return None
        record = record.get(key)
    return record


def utc(value):
    if value is None:
        return ""
    if isinstance(value, (int, float)):
        moment = datetime.fromtimestamp(value, timezone.utc)
    else:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def text(value, transform=str):
    return "" if value is None else transform(value)


def row(order):
    items = order.get("items") or []
    units = sum(item.get("qty", 1) for item in items)
    total = sum(Decimal(str(item.get("qty", 1))) * Decimal(str(item["price"])) for item in items)
    return {
        "id": int(order["id"]),
        "customer_name": text(dig(order, "customer", "name")),
        "customer_email": text(dig(order, "customer", "email")),
        "city": text(dig(order, "shipping", "address", "city")),
        "country": text(dig(order, "shipping", "address", "country")),
        "units": units,
        "total": f"{Decimal(total):.2f}",
        "currency": text(order.get("currency"), str.upper),
        "created_at": utc(order.get("created_at")),
        "status": text(order.get("status"), str.lower),
    }


def main():
    with open("orders.json", encoding="utf-8") as f:
        orders = json.load(f)
    rows = sorted((row(order) for order in orders), key=lambda r: r["id"])
    with open("orders.csv", "w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=COLUMNS)
        writer.writeheader()
        writer.writerows(rows)


if __name__ == "__main__":
    main()
PY
python3 convert.py
