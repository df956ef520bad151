"""Render one Markdown-ish page to HTML on stdout: python3 tools/render.py PAGE.md

Supports what the site uses: '# ' / '## ' headings and paragraphs separated by blank lines.
"""

import html
import sys


def render(text: str) -> str:
    parts = []
    for block in text.strip().split("\n\n"):
        block = block.strip()
        if block.startswith("## "):
            parts.append(f"<h2>{html.escape(block[3:])}</h2>")
        elif block.startswith("# "):
            parts.append(f"<h1>{html.escape(block[2:])}</h1>")
        elif block:
            parts.append(f"<p>{html.escape(' '.join(block.split()))}</p>")
    return '<!doctype html>\n<meta charset="utf-8">\n' + "\n".join(parts) + "\n"


if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as page:
        sys.stdout.write(render(page.read()))
