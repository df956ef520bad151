"""Helpers for the benchmark runner's tests: fixture tasks copied into tmp_path, scripted models.

`fixtures/tasks/` holds two tiny tasks in the Harbor layout: `fix-add` (a one-line bug in
calc.py) and `write-greeting` (a file to commit on top of a setup.sh-made git history).
"""

import json
import re
import shutil
from pathlib import Path
from typing import Any

FIXTURE_TASKS = Path(__file__).parent / "fixtures" / "tasks"

FIX_ADD = [
    {"tool_calls": [{"name": "read", "args": {"path": "calc.py"}}]},
    {
        "tool_calls": [
            {"name": "edit", "args": {"path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"}}
        ]
    },
    {"text": "Done."},
]
"""A scripted agent that fixes fix-add with the read and edit tools."""


def copy_task(root: Path, name: str, as_name: str | None = None, agent_timeout_s: float | None = None) -> Path:
    """Copy fixture task `name` to `root/as_name` (its agent timeout replaced if given); its folder."""
    folder = root / (as_name or name)
    shutil.copytree(FIXTURE_TASKS / name, folder)
    if agent_timeout_s is not None:
        toml = folder / "task.toml"
        text = re.sub(r"(\[agent\]\ntimeout_sec = )[0-9.]+", rf"\g<1>{agent_timeout_s}", toml.read_text())
        toml.write_text(text)
    return folder


def scripted(path: Path, items: list[dict[str, Any]]) -> str:
    """Write a scripted model's responses to `path`; its model string."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(items), encoding="utf-8")
    return f"script:{path}"
