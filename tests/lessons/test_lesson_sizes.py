"""What a lesson's size counts (`scripts/lesson_sizes.py`), and the top README says each one's."""

import re

from tests.lessons.conftest import ROOT, lesson_script

lesson_sizes = lesson_script.lesson_sizes

MODULE = '''"""A module docstring,
over two lines."""

import os  # a comment beside code is code


class Point:
    """A class docstring."""

    x: int = 0
    """An attribute docstring."""

    # a comment alone

    def norm(self) -> float:
        return (
            self.x ** 2
        ) ** 0.5
'''


def test_a_code_line_is_neither_blank_nor_a_comment_nor_a_docstring() -> None:
    assert lesson_sizes.code_lines(MODULE) == (
        "import os  # a comment beside code is code",
        "class Point:",
        "x: int = 0",
        "def norm(self) -> float:",
        "return (",
        "self.x ** 2",
        ") ** 0.5",
    )


def test_a_lesson_counts_what_it_adds_to_a_file_not_the_file() -> None:
    before = {"decode/a.py": b"x = 1\ny = 2\n", "decode/b.py": b"z = 3\n"}
    after = {
        "decode/a.py": b"x = 1\n# new\ny = 20\nw = 4\n",  # one line changed, one added, a comment
        "decode/b.py": b"z = 3\n",
        "decode/c.py": b'"""New."""\n\nv = 5\n',
        "evals/tasks/t/environment/seed/s.py": b"data = 1\n",  # a benchmark task: data, not counted
        "decode/notes.md": b"prose\n",
    }
    assert lesson_sizes.size(after, before) == 3


def test_the_readme_lists_each_lessons_size() -> None:
    known = lesson_script.lessons()
    sizes = lesson_sizes.sizes(list(known), lesson_script.snapshot_files)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    listed = {
        int(n): int(lines.replace(",", ""))
        for n, lines in re.findall(r"^\| (\d\d) \| \[[^]]+\]\([^)]+\) \| ([\d,]+) \|", readme, re.M)
    }
    assert listed == sizes, "README's `code` column is out of date: `scripts/lesson sizes` prints the figures"
