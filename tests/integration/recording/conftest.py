"""A real local Kitaru server for the recording tests, started by `scripts/kitaru-local` (what
`make kitaru-local` runs) on free ports in a temporary directory, stopped in `finally`."""

import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[3] / "scripts" / "kitaru-local"


@dataclass
class KitaruServer:
    url: str
    agent_id: str
    home: Path
    api_key: str
    """The server authenticates every request: this is the key `start` printed."""


@pytest.fixture(scope="session")
def kitaru_server() -> Iterator[KitaruServer]:
    if not glob.glob("/usr/lib/postgresql/*/bin/initdb") and not shutil.which("initdb"):
        pytest.skip("PostgreSQL's server programs are not installed (apt-get install postgresql)")
    # Under /tmp with 0755: as root the cluster runs as `postgres`, who must reach its directory.
    home = Path(tempfile.mkdtemp(prefix="decode-kitaru-", dir="/tmp"))
    home.chmod(0o755)
    env = {**os.environ, "KITARU_DISABLE_CLIENT_ANALYTICS": "1"}
    try:
        done = subprocess.run(
            [sys.executable, str(SCRIPT), "start", "--dir", str(home / "k")],
            capture_output=True, text=True, timeout=180, env=env, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        lines = dict(line.split("=", 1) for line in done.stdout.splitlines())
        yield KitaruServer(lines["KITARU_API_URL"], lines["KITARU_AGENT_ID"], home / "k", lines["KITARU_API_KEY"])
    finally:
        # A throwaway server: a short grace, so the suite's end does not wait on a busy worker.
        stop = [sys.executable, str(SCRIPT), "stop", "--dir", str(home / "k"), "--grace", "2"]
        subprocess.run(stop, timeout=60, check=False)
        shutil.rmtree(home, ignore_errors=True)


def session_ids(project: Path) -> list[str]:
    """The decode session ids saved in `project`, oldest first."""
    logs = sorted((project / ".decode" / "sessions").glob("*.jsonl"), key=lambda p: p.stat().st_mtime)
    return [json.loads(p.read_text().splitlines()[0]).get("session_id", p.stem) for p in logs]
