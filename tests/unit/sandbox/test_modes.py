"""`SandboxMode` lives in an enum-only module, and the sandbox seam's vocabulary is still where it was."""

import subprocess
import sys

from decode.sandbox import types
from decode.sandbox.modes import SandboxMode


def test_the_seam_names_the_same_enum() -> None:
    assert types.SandboxMode is SandboxMode
    assert [mode.value for mode in SandboxMode] == ["none", "bwrap", "docker", "modal"]


def test_the_modes_load_without_the_seam() -> None:
    code = "import sys, decode.sandbox.modes, decode.permissions.modes; print(sorted(sys.modules))"
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "asyncio" not in loaded
    assert "decode.sandbox.types" not in loaded
    assert "decode.permissions.types" not in loaded
