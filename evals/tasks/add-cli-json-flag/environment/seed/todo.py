"""A tiny to-do list on the command line.

    python3 todo.py add "Buy milk"
    python3 todo.py done 1
    python3 todo.py list [--pending]

Items live in a plain text file (default todo.txt, or --file PATH): one item a line,
"x<TAB>title" when done and "-<TAB>title" when not; an item's id is its line number.
"""

import argparse
import sys
from pathlib import Path


def load(path: Path) -> list[dict]:
    """Read the items of PATH (none when it does not exist)."""
    if not path.exists():
        return []
    items = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        mark, _, title = line.partition("\t")
        items.append({"id": number, "title": title, "done": mark == "x"})
    return items


def save(path: Path, items: list[dict]) -> None:
    lines = [("x" if item["done"] else "-") + "\t" + item["title"] for item in items]
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def cmd_add(args: argparse.Namespace) -> int:
    items = load(args.file)
    items.append({"id": len(items) + 1, "title": args.title, "done": False})
    save(args.file, items)
    print(f"Added {len(items)}: {args.title}")
    return 0


def cmd_done(args: argparse.Namespace) -> int:
    items = load(args.file)
    if not 1 <= args.id <= len(items):
        print(f"No item {args.id}", file=sys.stderr)
        return 1
    items[args.id - 1]["done"] = True
    save(args.file, items)
    print(f"Done {args.id}: {items[args.id - 1]['title']}")
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    items = load(args.file)
    if args.pending:
        items = [item for item in items if not item["done"]]
    if not items:
        print("No items.")
        return 0
    for item in items:
        box = "[x]" if item["done"] else "[ ]"
        print(f"{box} {item['id']:>3}  {item['title']}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="todo", description="A tiny to-do list.")
    parser.add_argument("--file", type=Path, default=Path("todo.txt"), help="where the items live")
    commands = parser.add_subparsers(dest="command", required=True)

    add = commands.add_parser("add", help="add an item")
    add.add_argument("title")
    add.set_defaults(run=cmd_add)

    done = commands.add_parser("done", help="mark an item done")
    done.add_argument("id", type=int)
    done.set_defaults(run=cmd_done)

    listing = commands.add_parser("list", help="show the items")
    listing.add_argument("--pending", action="store_true", help="only items not done yet")
    listing.set_defaults(run=cmd_list)

    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
