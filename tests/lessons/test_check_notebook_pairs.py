"""`scripts/check_notebook_pairs.py`: what `make sync-check` and the pre-commit hook rely on."""

import os
from pathlib import Path

import jupytext
import pytest

from tests.lessons.conftest import ROOT, pairs_script

NOTEBOOK_PY = """\
# %% [markdown]
# # A lesson

# %%
x = 1
print(x)
"""


@pytest.fixture
def lesson(tmp_path: Path) -> Path:
    """A lesson folder holding an in-sync pair `99-demo.py` + `99-demo.ipynb`."""
    folder = tmp_path / "99-demo"
    folder.mkdir()
    (folder / "99-demo.py").write_text(NOTEBOOK_PY)
    jupytext.write(jupytext.read(folder / "99-demo.py"), folder / "99-demo.ipynb")
    return folder


def _edit_notebook(folder: Path, new_source: str) -> None:
    notebook = jupytext.read(folder / "99-demo.ipynb")
    notebook.cells[1].source = new_source
    jupytext.write(notebook, folder / "99-demo.ipynb")


def _make_newer(newer: Path, older: Path) -> None:
    stamp = older.stat().st_mtime
    os.utime(older, (stamp - 10, stamp - 10))
    os.utime(newer, (stamp, stamp))


def test_pair_in_sync_passes(lesson: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert pairs_script.main([str(lesson)]) == 0
    assert "1 notebook pairs in sync" in capsys.readouterr().out


def test_pair_out_of_sync_fails_with_a_diff(lesson: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _edit_notebook(lesson, "x = 2\nprint(x)")

    assert pairs_script.main([str(lesson)]) == 1

    err = capsys.readouterr().err
    assert "99-demo.py and 99-demo.ipynb differ" in err
    assert "-x = 1" in err
    assert "+x = 2" in err
    assert (lesson / "99-demo.py").read_text() == NOTEBOOK_PY  # a check never writes


def test_fix_rewrites_the_py_from_a_newer_ipynb(lesson: Path) -> None:
    _edit_notebook(lesson, "x = 2\nprint(x)")
    _make_newer(lesson / "99-demo.ipynb", lesson / "99-demo.py")

    assert pairs_script.main(["--fix", str(lesson)]) == 0

    assert "x = 2\n" in (lesson / "99-demo.py").read_text()
    assert pairs_script.main([str(lesson)]) == 0


def test_fix_keeps_a_py_edited_after_its_ipynb(lesson: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edited = NOTEBOOK_PY.replace("x = 1", "x = 3")
    (lesson / "99-demo.py").write_text(edited)
    _make_newer(lesson / "99-demo.py", lesson / "99-demo.ipynb")

    assert pairs_script.main(["--fix", str(lesson)]) == 1

    assert (lesson / "99-demo.py").read_text() == edited
    assert "99-demo.py is newer than 99-demo.ipynb" in capsys.readouterr().out
    assert pairs_script.main(["--fix", "--force", str(lesson)]) == 0
    assert (lesson / "99-demo.py").read_text() == NOTEBOOK_PY


def test_a_py_without_its_ipynb_is_reported(lesson: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (lesson / "99-demo.ipynb").unlink()

    assert pairs_script.main([str(lesson)]) == 1
    assert "99-demo.ipynb is missing" in capsys.readouterr().err


def test_files_outside_lesson_folders_are_not_notebooks() -> None:
    assert pairs_script.find_pairs([ROOT / "lessons" / "conftest.py", ROOT / "README.md"]) == []
