#!/usr/bin/env bash
# Add `list --json`: build the array from the loaded items, print it instead of the text lines.
set -euo pipefail
python3 - <<'PY'
from pathlib import Path

path = Path("todo.py")
src = path.read_text(encoding="utf-8")
src = src.replace("import argparse\n", "import argparse\nimport json\n", 1)
src = src.replace(
    """        items = [item for item in items if not item["done"]]
    if not items:""",
    """        items = [item for item in items if not item["done"]]
    if args.json:
        rows = [{"id": i["id"], "title": i["title"], "done": i["done"]} for i in items]
        print(json.dumps(rows, ensure_ascii=False))
        return 0
    if not items:""",
    1,
)
src = src.replace(
    """help="only items not done yet")
""",
    """help="only items not done yet")
    listing.add_argument("--json", action="store_true", help="print the items as a JSON array")
""",
    1,
)
path.write_text(src, encoding="utf-8")

readme = Path("README.md")
text = readme.read_text(encoding="utf-8")
text = text.replace(
    "python3 todo.py list --pending      # only the items not done yet\n",
    "python3 todo.py list --pending      # only the items not done yet\n"
    "python3 todo.py list --json         # the items as a JSON array (combines with --pending)\n",
    1,
)
text = text.replace(
    "then the id and the title.\n",
    "then the id and the title.\n"
    'With `--json` it prints one JSON array instead: `[{"id": 1, "title": "Buy milk", "done": false}]`\n'
    "(`[]` when there are no items).\n",
    1,
)
readme.write_text(text, encoding="utf-8")
PY
python3 todo.py list --json
