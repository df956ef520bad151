"""`decode remote`: no modal for `--help`, a clear exit 2 without a token, the table's columns."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from decode.cli import cli
from decode.commands.remote import attempts_table
from decode.remote.attempts import COLUMNS, row
from decode.remote.task import redact


def _python(code: str, home: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MODAL_")} | {"HOME": str(home)}
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)


@pytest.mark.parametrize("args", [["--help"], ["remote", "--help"], ["remote", "attempts", "--help"]])
def test_help_imports_no_modal(args: list[str], tmp_path: Path) -> None:
    code = (
        f"import sys\nfrom decode.cli import cli\ntry:\n    cli({args!r})\nexcept SystemExit:\n    pass\n"
        "print('MODAL', 'modal' in sys.modules)"
    )
    done = _python(code, tmp_path)
    assert "MODAL False" in done.stdout, done.stderr


@pytest.fixture
def no_modal_token(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No Modal token in the environment, nor in the `~/.modal.toml` Modal read when first imported
    (in-process, by whichever test imported it first: it reads that file once)."""
    import modal.config

    monkeypatch.setattr(modal.config, "_user_config", {})
    for name in [name for name in os.environ if name.startswith("MODAL_")]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path))


@pytest.mark.parametrize(
    "args",
    [
        ["deploy"],
        ["run", "fix it", "--repo", "https://example.invalid/r.git"],
        ["attempts", "2", "fix it", "--repo", "https://example.invalid/r.git"],
        ["logs"],
        ["serve-model"],
    ],
)
def test_without_a_modal_token_every_subcommand_exits_2_with_one_line(args: list[str], no_modal_token: None) -> None:
    done = CliRunner().invoke(cli, ["remote", *args])  # in-process: the exit code and output are the point
    assert done.exit_code == 2
    assert done.stderr.strip().splitlines() == [
        "decode remote: no Modal token here. Run `modal token new` (or set MODAL_TOKEN_ID and MODAL_TOKEN_SECRET); "
        "nothing was sent to Modal."
    ]
    assert done.stdout == ""


def test_attempts_must_be_at_least_one() -> None:
    done = CliRunner().invoke(cli, ["remote", "attempts", "0", "t", "--repo", "r"])
    assert done.exit_code == 2
    assert "0 is not in the range" in done.stderr


def test_the_table_has_the_columns_and_a_row_per_attempt() -> None:
    result = {
        "exit_code": 0,
        "usage": {"requests": 2, "total_tokens": 108},
        "cost_usd": 0.0012,
        "diff": {"files": 1, "insertions": 3, "deletions": 0},
        "handback": {"branch": "decode/abc", "outcome": "shipped"},
    }
    failed = {"exit_code": 1, "usage": None, "cost_usd": None, "handback": None, "diff": {}}
    table = attempts_table([result, failed])
    assert tuple(column.header for column in table.columns) == COLUMNS
    assert row(1, result) == ("1", "0", "2", "108", "$0.0012", "1 files +3 -0", "decode/abc")
    assert row(2, failed) == ("2", "1", "-", "-", "-", "0 files +0 -0", "-")


def test_a_credential_in_a_url_never_comes_back() -> None:
    text = json.dumps({"error": "push to https://x-access-token:ghp_SECRET@github.com/o/r.git failed"})
    assert "ghp_SECRET" not in redact(text)
    assert "https://***@github.com/o/r.git" in redact(text)
    assert redact("git@github.com:o/r.git") == "git@github.com:o/r.git"  # ssh: no secret in the name


def test_the_push_token_from_the_secret_goes_into_an_https_url_only() -> None:
    from decode.remote.task import with_token

    assert with_token("https://github.com/o/r.git", "T0K") == "https://x-access-token:T0K@github.com/o/r.git"
    assert with_token("https://me:mine@github.com/o/r.git", "T0K") == "https://me:mine@github.com/o/r.git"
    assert with_token("git@github.com:o/r.git", "T0K") == "git@github.com:o/r.git"  # ssh: its own keys
    assert with_token("/srv/repo", "T0K") == "/srv/repo"
    assert with_token("https://github.com/o/r.git", None) == "https://github.com/o/r.git"
