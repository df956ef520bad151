"""Helpers for the permission tests that run the real `decode run` on a scripted model."""

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.integration.forkserver import as_text, run_forked

DECODE = Path(sys.executable).parent / "decode"


def decode_run(project: Path, calls: list[dict], *options: str) -> subprocess.CompletedProcess[str]:
    """`decode run` on a script that makes `calls` (one per response), then answers "done"."""
    script = project.parent / "script.json"
    script.write_text(json.dumps([*({"tool_calls": [call]} for call in calls), {"text": "done"}]))
    argv = [str(DECODE), "run", "--model", f"script:{script}", *options, "do it"]
    # HOME is this test's empty folder (tests/conftest.py); a process forked with the CLI imported.
    return as_text(run_forked(argv, cwd=project, env=dict(os.environ)))


def bash(command: str) -> dict:
    return {"name": "bash", "args": {"command": command}}
