"""Print a numbered table of contents from the first '# ' heading of each chapter file.

Usage: python3 tools/toc.py CHAPTER.md ... > dist/toc.md
"""

import sys


def title(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("# "):
                return line[2:].strip()
    return path


def main(paths: list[str]) -> None:
    print("## Contents\n")
    for number, path in enumerate(paths, 1):
        print(f"{number}. {title(path)}")
    print()


if __name__ == "__main__":
    main(sys.argv[1:])
