"""The built wheel carries the built-in agents and their index: an installed decode has `explore`."""

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[3]


@pytest.mark.skipif(shutil.which("uv") is None, reason="uv is not on PATH")
def test_the_wheel_holds_every_builtin_agent_and_the_index(tmp_path: Path) -> None:
    subprocess.run(
        ["uv", "build", "--wheel", "--python", sys.executable, "--out-dir", str(tmp_path), str(REPO)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = tmp_path.glob("decode-*.whl")
    shipped = set(zipfile.ZipFile(wheel).namelist())

    builtins = sorted((REPO / "decode" / "agents" / "builtin").glob("*.md"))
    assert len(builtins) == 5
    for agent in builtins:
        assert agent.relative_to(REPO).as_posix() in shipped
    assert "decode/agents/builtin/index.json" in shipped
