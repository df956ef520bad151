"""Running the lesson notebooks under nbval (`pytest --nbval --nbval-current-env lessons/`).

nbval starts one kernel per notebook, and the kernel inherits this process's environment. A
notebook must show the same outputs on every machine, offline and with no key, so its kernel
starts without the developer's keys and `DECODE_*` settings and with HOME pointing at an empty
folder (no user-level `~/.decode/` files): the rule of `tests/conftest.py`, applied to kernels.
TMPDIR points into the same throw-away folder, because nbval kills each kernel when its notebook
is done, before the notebook's temporary directories can clean themselves up.

Each kernel runs against its lesson's snapshot (`scripts/lesson snapshot NN`): PYTHONPATH puts
the package as it stands after lesson NN ahead of the finished one, so a notebook that reaches for
a later lesson's code fails here, at run time, however indirectly it imports it. `lessons/` is on
the path too, for `course.py` and the lesson's `exercises.py`.
"""

import os
import shutil
import tempfile
from collections.abc import Generator
from pathlib import Path

import pytest
from course import lesson_script

# Provider settings that are not DECODE_*-prefixed (see decode/config/settings.py).
PROVIDER_VARIABLES = {"GEMINI_BASE_URL", "OPENROUTER_BASE_URL", "OPENAI_BASE_URL"}
NOTEBOOK_FOLDERS = pytest.StashKey[list[Path]]()
LESSONS = Path(__file__).resolve().parent


def _is_decode_setting(name: str) -> bool:
    return name.startswith("DECODE_") or name.endswith("_API_KEY") or name in PROVIDER_VARIABLES


def _notebook_folder(item: pytest.Item) -> Path:
    """A fresh folder holding the kernel's `home/` and `tmp/`, removed when the session ends."""
    folder = Path(tempfile.mkdtemp(prefix="decode-notebook-"))
    for name in ("home", "tmp"):
        (folder / name).mkdir()
    item.config.stash.setdefault(NOTEBOOK_FOLDERS, []).append(folder)
    return folder


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, object, object]:
    # nbval starts a notebook's kernel while setting up the notebook's first cell, inside this
    # hook; the kernel keeps the environment it started with.
    if item.path.suffix != ".ipynb" or getattr(item.parent, "kernel", None) is not None:
        return (yield)
    with pytest.MonkeyPatch.context() as patch:
        for name in list(os.environ):
            if _is_decode_setting(name):
                patch.delenv(name)
        folder = _notebook_folder(item)
        patch.setenv("HOME", str(folder / "home"))
        patch.setenv("TMPDIR", str(folder / "tmp"))
        snapshot = folder / "snapshot"
        lesson_script().write_snapshot(int(item.path.parent.name[:2]), snapshot)
        patch.setenv("PYTHONPATH", os.pathsep.join([str(snapshot), str(LESSONS), str(item.path.parent)]))
        patch.setenv("COURSE_LESSON", item.path.parent.name[:2])
        return (yield)


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in config.stash.get(NOTEBOOK_FOLDERS, []):
        shutil.rmtree(folder, ignore_errors=True)
