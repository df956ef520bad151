"""Build a project with tricky names using the workspace's build.sh; compare dist/ with what it should be.

Usage: python3 check_build.py BUILD_SH RENDER_PY
"""

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

build_sh, render_py = Path(sys.argv[1]), Path(sys.argv[2])

PAGES = {
    "index.md": "# Home\n\nHello.\n",
    "about us.md": "# About us\n\nThree people & a cat.\n",
    "-draft.md": "# Draft\n\nStarts with a dash.\n",
    'it\'s "quoted".md': "# Quotes\n\nBoth kinds.\n",
    "star*.md": "# Star\n\nA glob character.\n",
    "café menu.md": "# Café\n\n## Drinks\n\nCoffee.\n",
    "guides/getting started.md": "# Getting started\n\nInstall it.\n",
    "guides/deep  dive/part 1.md": "# Part 1\n\nTwo spaces in the folder name.\n",
    "guides/deep  dive/-x/n.md": "# N\n\nA folder with a dash.\n",
}
ASSETS = {
    "style.css": b"body { margin: 0 }\n",
    "assets/logo v2.svg": b"<svg/>\n",
    "assets/fonts/mono regular.woff2": bytes(range(256)),
    "guides/deep  dive/diagram [1].png": b"\x89PNG\r\n\x1a\n\x00fake",
    "notes.md.bak": b"not a page\n",
}


def build(root: Path) -> None:
    done = subprocess.run(["bash", "build.sh"], cwd=root, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, f"build.sh exited {done.returncode}: {done.stderr[-2000:]}"


def expected(root: Path) -> dict[str, bytes]:
    want = {}
    for rel, _ in PAGES.items():
        html = subprocess.run(
            [sys.executable, str(render_py), str(root / "src" / rel)], capture_output=True, check=True, timeout=20
        ).stdout
        want[rel[: -len(".md")] + ".html"] = html
    want.update(ASSETS)
    return want


def actual(root: Path) -> dict[str, bytes]:
    dist = root / "dist"
    return {p.relative_to(dist).as_posix(): p.read_bytes() for p in dist.rglob("*") if p.is_file()}


def compare(want: dict[str, bytes], got: dict[str, bytes]) -> None:
    missing, extra = sorted(set(want) - set(got)), sorted(set(got) - set(want))
    assert not missing and not extra, f"missing {missing}, unexpected {extra}"
    wrong = sorted(name for name in want if want[name] != got[name])
    assert not wrong, f"wrong content: {wrong}"


with tempfile.TemporaryDirectory() as tmp:
    root = Path(tmp, "site project")  # a space in the project's own path, too
    (root / "tools").mkdir(parents=True)
    shutil.copy(build_sh, root / "build.sh")
    shutil.copy(render_py, root / "tools" / "render.py")
    for rel, text in PAGES.items():
        (root / "src" / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / "src" / rel).write_text(text, encoding="utf-8")
    for rel, data in ASSETS.items():
        (root / "src" / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / "src" / rel).write_bytes(data)
    (root / "dist" / "old").mkdir(parents=True)
    (root / "dist" / "old" / "stale.html").write_text("left over\n")

    build(root)
    compare(expected(root), actual(root))
    # Rebuild after a page is removed: nothing of it may remain.
    (root / "src" / "about us.md").unlink()
    del PAGES["about us.md"]
    build(root)
    compare(expected(root), actual(root))
print("build OK")
