"""A regression case runs as a benchmark trial does: sandboxed, with none of the caller's secrets."""

import shutil
from pathlib import Path

import pytest

from tests.evals.regression.conftest import RunCase

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (apt install bubblewrap)"),
]

SECRET = "sk-caller-secret-0123456789"


def test_a_case_run_sees_no_secret_of_the_caller_and_writes_nothing_outside_its_workspace(
    run: RunCase, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOST_SECRET", SECRET)
    outside = tmp_path / "written-by-the-case"
    probe = f'env; echo "[$HOST_SECRET]"; touch {outside}'
    result, _ = run(
        "explain-only", [{"tool_calls": [{"name": "bash", "args": {"command": probe}}]}, {"text": "It adds."}]
    )
    log = Path(result.log or "").read_text(encoding="utf-8")
    assert "PATH=/usr/local/bin:/usr/bin:/bin" in log  # the probe ran…
    assert "[]" in log  # …without the caller's variable
    assert SECRET not in log
    assert not outside.exists()  # the host beyond the workspace is read-only, and /tmp the sandbox's own
