"""Helpers for the MCP tests through the real CLI."""

import json
from pathlib import Path

from jsonschema import Draft202012Validator

SCHEMA = json.loads((Path(__file__).parents[3] / "docs" / "schemas" / "stream-json.schema.json").read_text())


def checked(line: str) -> dict:
    """One stream-json line, checked against the schema."""
    event = json.loads(line)
    problems = [error.message for error in Draft202012Validator(SCHEMA).iter_errors(event)]
    assert not problems, f"{event} does not match the schema: {problems}"
    return event
