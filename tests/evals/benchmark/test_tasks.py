"""Loading a task folder: a malformed `task.toml` or `instruction.md` is a `TaskError` naming the file."""

from pathlib import Path

import pytest

from evals.benchmark.tasks import TaskError, load_task
from tests.evals.benchmark.conftest import copy_task


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "0", "-5.0", '"60"', "true"])
def test_a_timeout_that_is_not_a_finite_positive_number_is_refused(tmp_path: Path, value: str) -> None:
    folder = copy_task(tmp_path, "fix-add")
    toml = folder / "task.toml"
    toml.write_text(toml.read_text().replace("[agent]\ntimeout_sec = ", f"[agent]\ntimeout_sec = {value}\n# was "))

    with pytest.raises(TaskError, match=r"task\.toml: \[agent\] timeout_sec must be a positive number"):
        load_task(folder)


@pytest.mark.parametrize("name", ["instruction.md", "task.toml"])
def test_a_file_that_is_not_utf8_is_refused_by_name(tmp_path: Path, name: str) -> None:
    folder = copy_task(tmp_path, "fix-add")
    (folder / name).write_bytes(b"caf\xe9 \xff\n")

    with pytest.raises(TaskError, match=rf"{name}: not UTF-8 text"):
        load_task(folder)


def test_a_good_task_loads(tmp_path: Path) -> None:
    task = load_task(copy_task(tmp_path, "fix-add"))
    assert task.agent_timeout_s > 0
    assert task.instruction
