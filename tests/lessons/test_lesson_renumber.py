"""`scripts/lesson renumber` (scripts/lesson_renumber.py): new numbers for lessons, every reference at once.

This file is left out of every renumbering (`OWN_FILES`): its lesson numbers are data.
"""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.lessons.conftest import ROOT, lesson_script

renumber = lesson_script.lesson_renumber
CHAIN = {16: 17, 17: 18}
MOVED = ["16-observability", "17-recording"]


def test_a_chain_moves_each_reference_once_and_keeps_its_width() -> None:
    text = (
        "code()  # [lesson 16]\n# [lesson 17]\n# [before lesson 17]\n# [/lesson 17]\n"
        "Lesson 16's notebook; lesson 6 and lesson 15 stay; lessons 15 and 16; lessons 02-17.\n"
        'make lab N=16; make notebooks-load N="11 17"; build/16/ and decode-lesson17- (job lesson16)\n'
        'scripts/lesson snapshot 16; run([python, "snapshot", "17", before]); show_diff(16, "decode/x.py")\n'
        "see lessons/16-observability/16-observability.py and 17-recording.ipynb\n"
        "| 16 | [observability](lessons/16-observability/) | 470 |\n"
    )
    new, count = renumber.rewrite(text, CHAIN, MOVED)
    assert new == (
        "code()  # [lesson 17]\n# [lesson 18]\n# [before lesson 18]\n# [/lesson 18]\n"
        "Lesson 17's notebook; lesson 6 and lesson 15 stay; lessons 15 and 17; lessons 02-18.\n"
        'make lab N=17; make notebooks-load N="11 18"; build/17/ and decode-lesson18- (job lesson17)\n'
        'scripts/lesson snapshot 17; run([python, "snapshot", "18", before]); show_diff(17, "decode/x.py")\n'
        "see lessons/17-observability/17-observability.py and 18-recording.ipynb\n"
        "| 17 | [observability](lessons/17-observability/) | 470 |\n"
    )
    assert count == 20


def test_a_whole_number_is_read() -> None:
    """ "lesson 1" is not "lesson 16"; a number keeps its width; other numbers are not references."""
    text = "lesson 16, lesson 1, lesson 01, Lesson 1's, lesson 160, 16 files, the 16-bit, v1.16-rc"
    new, count = renumber.rewrite(text, {1: 2}, [])
    assert new == "lesson 16, lesson 2, lesson 02, Lesson 2's, lesson 160, 16 files, the 16-bit, v1.16-rc"
    assert count == 3
    assert renumber.rewrite("utf-16-le, 16-observability-x, a16-observability", CHAIN, MOVED) == (
        "utf-16-le, 16-observability-x, a16-observability",
        0,
    )


KNOWN = {15: "15-headless", 16: "16-observability", 17: "17-recording"}


@pytest.mark.parametrize(
    ("pairs", "problem"),
    [
        (["16-17"], "'16-17': a pair is OLD=NEW"),
        (["16=17"], "lessons 16 and 17 would both be 17; move the other one too"),
        (["20=21"], "there is no lesson 20 (lessons: 15, 16, 17)"),
        (["16=17", "16=18"], "lesson 16 is given twice"),
        (["17=0"], "0 is not a number from 1 to 99"),
    ],
)
def test_a_mapping_that_cannot_be_applied_is_refused(pairs: list[str], problem: str) -> None:
    with pytest.raises(renumber.RenumberError, match=problem.replace("(", r"\(").replace(")", r"\)")):
        renumber.parse_mapping(pairs, KNOWN)


def test_a_chain_or_a_swap_is_one_mapping() -> None:
    assert renumber.parse_mapping(["16=17", "17=18"], KNOWN) == CHAIN
    assert renumber.parse_mapping(["16=17", "17=16", "15=15"], KNOWN) == {16: 17, 17: 16}


def _git(repository: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repository, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repository(tmp_path: Path) -> Path:
    """A small course in git: two lessons to move, one to keep, a marked module, history that stays."""
    files = {
        "lessons/15-headless/lesson.toml": 'title = "Headless"\nintroduces = ["decode/run.py"]\n',
        "lessons/16-observability/lesson.toml": 'title = "Tracing"\nextends = ["decode/run.py"]\n',
        "lessons/16-observability/README.md": "# Lesson 16\n\n`make lesson-shell N=16`, after lesson 15.\n",
        "lessons/16-observability/16-observability.py": '# %% [markdown]\n# # Lesson 16\n\n# %%\nprint("lesson 16")\n',
        "lessons/17-recording/lesson.toml": 'title = "Recording"\nextends = ["decode/run.py"]\n',
        "decode/run.py": "def run() -> None:\n    trace()  # [lesson 16]\n"
        "    # [lesson 17]\n    record()\n    # [/lesson 17]\n",
        "docs/adr/0001-tracing.md": "Lesson 16 traces.\n",
        "tasks/001-tracing.md": "lesson 16: done\n",
        "README.md": "| 16 | [tracing](lessons/16-observability/) |\n| 17 | [recording](lessons/17-recording/) |\n",
    }  # fmt: skip
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    jupytext = Path(sys.executable).parent / "jupytext"
    notebook = "lessons/16-observability/16-observability.py"
    subprocess.run([jupytext, "--quiet", "--to", "ipynb", notebook], cwd=tmp_path, check=True)
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", ".")
    _git(tmp_path, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "a course")
    return tmp_path


def _renumber(repository: Path, *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(ROOT / "scripts" / "lesson"), "renumber", "--root", str(repository), *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120)


def test_check_lists_the_changes_and_changes_nothing(repository: Path) -> None:
    done = _renumber(repository, "--check", "16=17", "17=18")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert "would rename lessons/16-observability -> lessons/17-observability" in lines
    assert (
        "would rename lessons/16-observability/16-observability.py -> lessons/17-observability/17-observability.py"
    ) in lines
    assert "decode/run.py: would change 3 reference(s)" in lines
    assert not [line for line in lines if "adr" in line or "tasks" in line]
    assert _git(repository, "status", "--porcelain") == ""


def test_renumber_moves_folders_files_and_references_and_pairs_the_notebooks(repository: Path) -> None:
    done = _renumber(repository, "16=17", "17=18")
    assert done.returncode == 0, done.stderr
    assert "renamed lessons/17-recording -> lessons/18-recording" in done.stdout
    lessons = sorted(path.name for path in (repository / "lessons").iterdir())
    assert lessons == ["15-headless", "17-observability", "18-recording"]
    folder = repository / "lessons" / "17-observability"
    assert sorted(path.name for path in folder.iterdir()) == [
        "17-observability.ipynb",
        "17-observability.py",
        "README.md",
        "lesson.toml",
    ]
    assert (folder / "README.md").read_text() == "# Lesson 17\n\n`make lesson-shell N=17`, after lesson 15.\n"
    assert "trace()  # [lesson 17]\n    # [lesson 18]\n" in (repository / "decode" / "run.py").read_text()
    cells = json.loads((folder / "17-observability.ipynb").read_text())["cells"]
    assert ["".join(cell["source"]) for cell in cells] == ["# Lesson 17", 'print("lesson 17")']
    assert (repository / "docs/adr/0001-tracing.md").read_text() == "Lesson 16 traces.\n"  # history stays
    assert (repository / "tasks/001-tracing.md").read_text() == "lesson 16: done\n"
    assert "| 17 | [tracing](lessons/17-observability/) |" in (repository / "README.md").read_text()
    renames = [line for line in _git(repository, "status", "--porcelain").splitlines() if line.startswith("R")]
    assert len(renames) == 5, renames  # git sees each file moved, not deleted and added


def test_a_bad_mapping_is_one_line_and_exit_2(repository: Path) -> None:
    done = _renumber(repository, "16=17")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("scripts/lesson renumber: lessons 16 and 17 would both be 17; move the other one too\n")
    assert _git(repository, "status", "--porcelain") == ""
