"""How much code each lesson adds (`scripts/lesson sizes`): the lines a learner reads, not the prose.

A code line is a line of Python that is neither blank, nor only a comment, nor part of a docstring
(a string standing alone as a statement: a module's, a class's, a function's or an attribute's). A
lesson's size is the code lines its snapshot has that the snapshot before it has not: the files it
introduces or builds, and what it adds to the files it extends, compared line by line as a diff does.
Lesson 24's benchmark tasks (`evals/tasks/`: seeds, solutions, verifiers) are what the agent is
tested on, not code the lesson teaches, and are not counted. The top README lists each lesson's size;
issue 29 holds a lesson to about 1,200.
"""

import ast
import difflib
import functools
import io
import tokenize
from collections.abc import Callable, Mapping

Snapshot = Callable[[int], Mapping[str, bytes]]  # scripts/lesson's snapshot_files
DATA = ("evals/tasks/",)
"""Python that is a lesson's data, not its code: the benchmark tasks."""
NOT_CODE = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER}


@functools.cache  # a file unchanged from one lesson to the next is read once
def code_lines(text: str) -> tuple[str, ...]:
    """The code lines of `text` (a Python module), stripped of their indentation."""
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    rows = {row for token in tokens if token.type not in NOT_CODE for row in range(token.start[0], token.end[0] + 1)}
    rows -= _docstring_rows(ast.parse(text))
    lines = text.splitlines()
    return tuple(lines[row - 1].strip() for row in sorted(rows))


def _docstring_rows(tree: ast.AST) -> set[int]:
    rows: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            rows.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
    return rows


def added(before: tuple[str, ...], after: tuple[str, ...]) -> int:
    """The lines of `after` that a diff from `before` shows as added."""
    opcodes = difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes()
    return sum(j2 - j1 for tag, _, _, j1, j2 in opcodes if tag in ("insert", "replace"))


def size(files: Mapping[str, bytes], earlier: Mapping[str, bytes]) -> int:
    """The code lines `files` (a snapshot) adds to `earlier` (the one before it)."""
    total = 0
    for path, data in files.items():
        if path.endswith(".py") and not path.startswith(DATA) and data != earlier.get(path):
            before = code_lines(earlier[path].decode("utf-8")) if path in earlier else ()
            total += added(before, code_lines(data.decode("utf-8")))
    return total


def sizes(lessons: list[int], snapshot: Snapshot) -> dict[int, int]:
    """Each lesson's size, in order."""
    found, earlier = {}, {}
    for lesson in sorted(lessons):
        files = snapshot(lesson)
        found[lesson] = size(files, earlier)
        earlier = files
    return found
