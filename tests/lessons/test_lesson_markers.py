"""What markers cost (`scripts/lesson_markers.py`, ADR-0118): `before` parts are linted as the
lessons that read them, held to 10 lines and one a function, and counted."""

import subprocess
import sys

import pytest

from tests.lessons.conftest import ROOT, lesson_script

script = lesson_script
KNOWN = set(script.lessons())

CLEAN = """\
import os


def build() -> str:
    # [lesson 06]
    value = os.getcwd()
    # [before lesson 06]
    # value = os.sep
    # [/lesson 06]
    return value
"""


def before_part(lines: list[str]) -> str:
    return CLEAN.replace("    # value = os.sep\n", "".join(f"    # {line}\n" for line in lines))


def lint(text: str) -> list[str]:
    return script.lint_rendered({"decode/sample.py": (text, 3)}, KNOWN)


# --- the code of a `before` part is linted --------------------------------------------------------


def test_a_before_part_that_lints_passes() -> None:
    assert lint(CLEAN) == []


def test_a_before_part_naming_an_undefined_name_fails_at_its_source_line() -> None:
    problems = lint(before_part(["value = os.sep", "value = renamed_long_ago(value)"]))
    assert problems == ["decode/sample.py:9: as of lesson 03: F821 Undefined name `renamed_long_ago`"]


def test_a_before_part_that_is_not_python_fails() -> None:
    problems = lint(before_part(["value = (os.sep"]))
    assert problems
    assert all(problem.startswith("decode/sample.py:") and "invalid-syntax" in problem for problem in problems)


def test_an_import_a_dropped_block_leaves_unused_is_no_problem_the_snapshot_prunes_it() -> None:
    text = CLEAN.replace("    # value = os.sep\n", "    # value = '.'\n")
    assert lint(text) == []
    ((_, tidied),) = script._tidy((("decode/sample.py", script.render(text, 3, KNOWN).encode()),))
    assert tidied.decode() == 'def build() -> str:\n    value = "."\n    return value\n'


def test_a_type_checking_block_the_pruning_empties_goes_with_its_import() -> None:
    text = (
        "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from decode.gate import Gate\n\n\n"
        "def build(gate: 'Gate | None' = None) -> None:  # [lesson 06]\n    pass\n\n\nSTEPS = []\n"
    )
    ((_, tidied),) = script._tidy((("decode/sample.py", script.render(text, 3, KNOWN).encode()),))
    assert tidied.decode() == "STEPS = []\n"


# --- a `before` part is short, and one a function ----------------------------------------------------


def test_a_before_part_of_ten_lines_passes() -> None:
    assert script.block_problems(before_part(["value = os.sep"] * 10), "decode/sample.py") == []


def test_a_before_part_over_ten_lines_fails_naming_its_line_and_length() -> None:
    problems = script.block_problems(before_part(["value = os.sep"] * 11), "decode/sample.py")
    assert problems == ["decode/sample.py:7: a `before lesson 06` part of 11 lines (at most 10)"]


TWO_IN_ONE = """\
class A:
    def build(self) -> int:
        # [lesson 06]
        value = 1
        # [before lesson 06]
        # value = 0
        # [/lesson 06]
        # [lesson 11]
        value += 1
        # [before lesson 11]
        # value += 0
        # [/lesson 11]
        return value


class B:
    def build(self) -> int:
        # [lesson 06]
        return 1
        # [before lesson 06]
        # return 0
        # [/lesson 06]
"""


def test_a_second_before_part_in_one_function_fails() -> None:
    assert script.block_problems(TWO_IN_ONE, "decode/sample.py") == [
        "decode/sample.py:10: another `before` part (1 line) in build() (the first at line 5; at most 1 a function)"
    ]


def test_a_before_part_after_a_functions_last_statement_is_that_functions() -> None:
    blocks = sys.modules["lesson_markers"].before_blocks(TWO_IN_ONE)  # loaded by `scripts/lesson`
    assert [(block.line, block.function, block.function_line) for block in blocks] == [
        (5, "build", 2),
        (10, "build", 2),
        (20, "build", 17),
    ]


@pytest.fixture(scope="module")
def checked() -> subprocess.CompletedProcess[str]:
    """`scripts/lesson check` (what `make markers-check` runs) on the source tree, once: it renders
    every file for every lesson and lints each rendering, seconds of work."""
    return subprocess.run([sys.executable, ROOT / "scripts" / "lesson", "check"], capture_output=True, text=True)


def test_the_source_tree_markers_and_manifests_agree(checked: subprocess.CompletedProcess[str]) -> None:
    assert (checked.returncode, checked.stderr) == (0, "")


def test_each_part_over_the_limits_is_a_problem_of_the_check(checked: subprocess.CompletedProcess[str]) -> None:
    report = script.block_report()
    assert set(report) <= set(checked.stderr.splitlines())
    assert checked.returncode == (1 if report else 0), checked.stderr


# --- the count -----------------------------------------------------------------------------------


def test_the_count_is_the_lines_holding_a_marker() -> None:
    assert script.marker_count(CLEAN + "x = 1  # [lesson 10]\n") == 4


def test_the_markers_command_prints_each_file_and_the_total() -> None:
    done = subprocess.run(
        [sys.executable, ROOT / "scripts" / "lesson", "markers"], capture_output=True, text=True, check=True
    )
    *files, total = done.stdout.splitlines()
    counts = script.marker_counts()
    assert sorted(line.split()[1] for line in files) == sorted(counts)
    assert total.split()[0] == str(sum(counts.values()))
    grep = subprocess.run(
        ["grep", "-rc", r"\[lesson\|\[/lesson\|\[before lesson", "decode", "--include=*.py"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert sum(int(line.rsplit(":", 1)[1]) for line in grep.stdout.splitlines()) == sum(counts.values())
