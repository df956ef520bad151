"""`lessons/course.py`, what the notebooks share: the source they show, and the snapshot they run on.

Each case runs in a fresh interpreter, with a lesson's snapshot on the path as a notebook kernel
has it, because `course` reads `COURSE_LESSON` and checks where `decode` comes from when imported.
"""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.lessons.conftest import ROOT, lesson_script


def in_kernel(
    code: str, tmp_path: Path, *, lesson: int | None, snapshot: bool = True, cwd: Path | None = None
) -> subprocess.CompletedProcess:
    path = [str(ROOT / "lessons")]
    if snapshot and lesson is not None:
        lesson_script.write_snapshot(lesson, tmp_path / "snapshot")
        path.insert(0, str(tmp_path / "snapshot"))
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    environment.pop("COURSE_LESSON", None)
    if lesson is not None:
        environment["COURSE_LESSON"] = f"{lesson:02}"
    return subprocess.run(
        [sys.executable, "-P", "-c", code],
        cwd=cwd or tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_show_renders_a_definition_of_the_snapshot_with_its_decorators(tmp_path: Path) -> None:
    done = in_kernel('from course import show; print(repr(show("decode.entities.usage", "Usage")))', tmp_path, lesson=2)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("# decode/entities/usage.py: Usage\n")
    assert "class Usage" in done.stdout
    page = in_kernel('from course import show; print(show("decode.cli")._repr_html_())', tmp_path, lesson=1)
    assert page.stdout.startswith("<p><code>decode/cli.py</code></p><pre ")
    assert '<span style="color: #008000; font-weight: bold">def</span>' in page.stdout  # highlighted


# What a notebook shows: the HTML output (JupyterLab, GitHub), and the plain text IPython prints.
SHOWN = """
import html, re, sys
from IPython.lib.pretty import pretty
from course import show, show_diff
source = {call}
page = source._repr_html_()
block = page[page.index("<pre ") :]
lines = {{}}
for tag in re.findall(r'<span style="([^"]*)">([^<]*)</span>', block):
    lines[html.unescape(tag[1])] = tag[0]
print(repr({{"page": page, "text": source.text, "plain": pretty(source), "spans": lines,
    "shown": html.unescape(re.sub(r"<[^>]+>", "", block))}}))
"""


def shown(call: str, tmp_path: Path, lesson: int) -> dict:
    done = in_kernel(SHOWN.format(call=call), tmp_path, lesson=lesson)
    assert done.returncode == 0, done.stderr
    return ast.literal_eval(done.stdout)


def test_show_keeps_every_line_whole_in_a_block_that_scrolls_sideways(tmp_path: Path) -> None:
    """JupyterLab wraps an output's `pre` mid-word; the shown block keeps each line's shape (ADR-0122)."""
    output = shown('show("decode.agent.loop")', tmp_path, lesson=2)
    assert max(len(line) for line in output["text"].splitlines()) > 100  # long lines are there to keep
    assert output["shown"] == output["text"]  # not a character added or lost: no line is broken
    style = output["page"][output["page"].index("<pre style=") :].split(">")[0]
    assert "white-space: pre;" in style
    assert "overflow-x: auto" in style
    assert "word-break: normal" in style


def test_show_diff_colours_added_and_removed_lines_in_html_and_plain_text(tmp_path: Path) -> None:
    output = shown('show_diff(2, "decode/cli.py")', tmp_path, lesson=2)
    added = [line for line in output["text"].splitlines() if line.startswith("+")]
    removed = [line for line in output["text"].splitlines() if line.startswith("-")]
    assert added
    assert removed
    assert all(output["spans"][line] == "background-color: #d1f8d9" for line in added)  # green
    assert all(output["spans"][line] == "background-color: #ffdcd7" for line in removed)  # red
    assert output["shown"] == output["text"]
    assert f"\x1b[32m{added[0]}\x1b[0m" in output["plain"]  # the text/plain output, as `git diff` colours it
    assert f"\x1b[31m{removed[0]}\x1b[0m" in output["plain"]
    assert output["plain"].startswith("# decode/cli.py: what lesson 02 adds\n")


def test_show_diff_shows_what_a_lesson_added_and_refuses_a_later_lesson(tmp_path: Path) -> None:
    shown = in_kernel(
        'from course import show_diff; print(show_diff(5, "decode/tools/catalog.py"))', tmp_path, lesson=5
    )
    assert shown.returncode == 0, shown.stderr
    assert "+from decode.tools.bash import BASH" in shown.stdout
    later = in_kernel('from course import show_diff; show_diff(6, "decode/agent/compose.py")', tmp_path, lesson=5)
    assert later.returncode == 1
    assert "lesson 05's notebook cannot show lesson 06's code" in later.stderr


def test_a_kernel_that_should_run_on_a_snapshot_but_does_not_fails_at_once(tmp_path: Path) -> None:
    done = in_kernel("import course", tmp_path, lesson=4, snapshot=False)
    assert done.returncode == 1
    assert "comes from the finished package" in done.stderr


@pytest.mark.parametrize(
    ("test", "line"),
    [
        ("pass", "✓ works"),
        ("raise NotImplementedError", "✗ works: not started yet"),
        ("raise AssertionError('2 lines, expected 3')", "✗ works: 2 lines, expected 3"),
        ("1 / 0", "✗ works: it raised ZeroDivisionError: division by zero"),
    ],
)
def test_a_check_is_true_only_when_it_passed_and_shows_one_line(test: str, line: str, tmp_path: Path) -> None:
    code = (
        f"from course import check\ndef test():\n    {test}\nv = check('works', test)\nprint(bool(v)); print(repr(v))"
    )
    done = in_kernel(code, tmp_path, lesson=None)
    passed, shown = done.stdout.splitlines()
    assert passed == str(line.startswith("✓"))
    assert shown.startswith(line)


@pytest.mark.parametrize(
    ("lesson", "snapshot", "warning"),
    [
        (None, False, "⚠ lesson 05's notebook runs on the finished package"),
        (4, True, "⚠ lesson 05's notebook runs on lesson 04's package"),
        (5, True, ""),
    ],
)
def test_a_notebook_on_a_package_not_its_lessons_says_so_in_one_line(
    lesson: int | None, snapshot: bool, warning: str, tmp_path: Path
) -> None:
    """`course` is imported in a notebook's first cell, in the notebook's folder (here lesson 05's)."""
    done = in_kernel("import course", tmp_path, lesson=lesson, snapshot=snapshot, cwd=ROOT / "lessons" / "05-bash")
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith(warning)
    assert len(done.stderr.splitlines()) == (1 if warning else 0), done.stderr
    if warning:
        assert "open it with `make lab`" in done.stderr
