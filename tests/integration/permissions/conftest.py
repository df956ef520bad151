"""Helpers for the permission tests that run the real `decode run` on a scripted model."""

import json
import os
import subprocess
import sys
from pathlib import Path

DECODE = Path(sys.executable).parent / "decode"


def decode_run(project: Path, calls: list[dict], *options: str) -> subprocess.CompletedProcess[str]:
    """`decode run` on a script that makes `calls` (one per response), then answers "done"."""
    script = project.parent / "script.json"
    script.write_text(json.dumps([*({"tool_calls": [call]} for call in calls), {"text": "done"}]))
    return subprocess.run(
        [str(DECODE), "run", "--model", f"script:{script}", *options, "do it"],
        cwd=project,
        env=dict(os.environ),  # HOME is this test's empty folder (tests/conftest.py)
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=120,
    )


def bash(command: str) -> dict:
    return {"name": "bash", "args": {"command": command}}
