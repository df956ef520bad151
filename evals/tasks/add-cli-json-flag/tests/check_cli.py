"""Drive the workspace's todo.py on a fresh list and compare with the original (text) and the spec (JSON).

Usage: python3 check_cli.py WORKSPACE_TODO_PY ORIGINAL_TODO_PY
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

todo, original = sys.argv[1], sys.argv[2]
TITLES = ["Café au lait ☕", 'Say "hi" to Ana', "back\\slash & <tags>", "  padded  ", "Buy milk"]


def run(script: str, db: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, script, "--file", str(db), *args],
        capture_output=True,
        text=True,
        timeout=20,
        encoding="utf-8",
    )
    assert done.returncode == 0, f"{args}: exit {done.returncode}: {done.stderr}"
    return done.stdout


def check_json(db: Path, pending: bool, want: list[dict]) -> None:
    args = ["list", "--json"] + (["--pending"] if pending else [])
    out = run(todo, db, *args)
    got = json.loads(out)  # the whole of stdout must be one JSON document
    assert isinstance(got, list), f"not an array: {out!r}"
    for item in got:
        assert isinstance(item, dict) and set(item) == {"id", "title", "done"}, f"keys: {item!r}"
        assert type(item["id"]) is int and type(item["done"]) is bool, f"types: {item!r}"
        assert isinstance(item["title"], str), f"types: {item!r}"
    assert got == want, f"{args}: {got!r} != {want!r}"


with tempfile.TemporaryDirectory() as tmp:
    mine, theirs = Path(tmp, "mine.txt"), Path(tmp, "theirs.txt")
    # An empty list first: text unchanged, JSON is [].
    for pending in (False, True):
        flag = ["--pending"] if pending else []
        assert run(todo, mine, "list", *flag) == run(original, theirs, "list", *flag), "empty text"
        check_json(mine, pending, [])
    for title in TITLES:
        assert run(todo, mine, "add", title) == run(original, theirs, "add", title), "add output"
    for number in ("2", "4"):
        assert run(todo, mine, "done", number) == run(original, theirs, "done", number), "done output"
    assert mine.read_bytes() == theirs.read_bytes(), "the storage format changed"
    items = [{"id": i, "title": t, "done": i in (2, 4)} for i, t in enumerate(TITLES, start=1)]
    for pending in (False, True):
        flag = ["--pending"] if pending else []
        assert run(todo, mine, "list", *flag) == run(original, theirs, "list", *flag), "text list"
        check_json(mine, pending, [i for i in items if not (pending and i["done"])])
    # Every item done: --pending --json is empty, the text says so as before.
    for number in ("1", "3", "5"):
        run(todo, mine, "done", number)
        run(original, theirs, "done", number)
    assert run(todo, mine, "list", "--pending") == run(original, theirs, "list", "--pending")
    check_json(mine, True, [])
print("cli OK")
