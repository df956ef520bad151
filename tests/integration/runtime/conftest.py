"""Helpers for `decode run` as scripts and CI run it: a real process, stdin given, JSON read back."""

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from tests.integration.conftest import DECODE
from tests.integration.forkserver import run_forked

SCHEMA_PATH = Path(__file__).parents[3] / "docs" / "schemas" / "stream-json.schema.json"
RESULT_KEYS = {
    "type",
    "result",
    "session_id",
    "usage",
    "cost_usd",
    "num_requests",
    "duration_s",
    "is_error",
    "exit_code",
    "error",
    "handback",
    "subtype",
    "num_turns",
    "duration_ms",
    "duration_api_ms",
    "total_cost_usd",
    "permission_denials",
    "structured_output",
}

Headless = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(scope="session")
def validator() -> Draft202012Validator:
    schema = json.loads(SCHEMA_PATH.read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def events(stdout: str, validator: Draft202012Validator) -> list[dict[str, Any]]:
    """Every stdout line as JSON, each one checked against the schema (all errors in the message)."""
    lines = [json.loads(line) for line in stdout.splitlines()]
    for line in lines:
        problems = [error.message for error in validator.iter_errors(line)]
        assert not problems, f"{line} does not match the schema: {problems}"
    return lines


def _headless(
    *args: str, cwd: Path, stdin: bytes | str | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    # A process of its own, forked from one that imported the CLI already (tests/integration/forkserver.py).
    done = run_forked([DECODE, "run", *args], cwd=cwd, env={**os.environ, **(env or {})}, input=data or b"")
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8", "replace")
    )


@pytest.fixture
def headless() -> Headless:
    """`headless(*run_args, cwd=…, stdin=…, env=…)`: `decode run …` to the end, stdin a pipe (empty by default)."""
    return _headless
