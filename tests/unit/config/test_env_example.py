"""`.env.example` documents every setting, and only real ones.

A user copies it to `.env` to configure decode, so a setting missing from it is a setting nobody
finds. The file is generated from `Settings` by `scripts/env_example.py`.
"""

import re
from pathlib import Path

import pytest
from pydantic import AliasChoices

from decode.config.settings import Settings

EXAMPLE = Path(__file__).resolve().parents[3] / ".env.example"
SETTING_LINE = re.compile(r"^# ([A-Z][A-Z0-9_]*)=")
FIX = "regenerate it: .venv/bin/python scripts/env_example.py"


def env_names() -> dict[str, list[str]]:
    """Each field's environment variable names, the preferred one first."""
    names = {}
    for name, field in Settings.model_fields.items():
        alias = field.validation_alias
        names[name] = [str(c) for c in alias.choices] if isinstance(alias, AliasChoices) else [name.upper()]
    return names


@pytest.fixture(scope="module")
def lines() -> list[str]:
    return EXAMPLE.read_text(encoding="utf-8").splitlines()


def example_settings(lines: list[str]) -> list[str]:
    return [match[1] for line in lines if (match := SETTING_LINE.match(line))]


def test_every_setting_is_in_env_example(lines: list[str]) -> None:
    listed = set(example_settings(lines))
    missing = [names[0] for names in env_names().values() if names[0] not in listed]
    assert not missing, f".env.example lacks {missing}: {FIX}"


def test_env_example_names_only_real_settings(lines: list[str]) -> None:
    known = {name for names in env_names().values() for name in names}
    stale = [name for name in example_settings(lines) if name not in known]
    assert not stale, f".env.example names settings that no longer exist {stale}: {FIX}"


def test_every_setting_has_a_comment(lines: list[str]) -> None:
    for index, line in enumerate(lines):
        if SETTING_LINE.match(line):
            above = lines[index - 1] if index else ""
            assert above.startswith("# "), f"{line!r} has no comment: {FIX}"
            assert not SETTING_LINE.match(above), f"{line!r} has no comment: {FIX}"


def test_copying_the_example_to_env_changes_nothing(lines: list[str]) -> None:
    # Every line is a comment: an empty `GEMINI_API_KEY=` would set an empty key, not leave it unset.
    assert all(not line or line.startswith("#") for line in lines)


def test_the_settings_every_part_reads_come_first_then_each_lessons_group() -> None:
    """The model and its providers first, then each lesson's group (decode/config/groups/) in lesson order."""
    text = EXAMPLE.read_text(encoding="utf-8")
    names = ["DECODE_MODEL", "GEMINI_API_KEY", "DECODE_CONTEXT_WINDOW", "DECODE_BASH_TIMEOUT", "SANDBOX_MODE"]
    names += ["KITARU_API_URL", "DECODE_SANDBOX_HIDE"]
    positions = [text.index(f"\n# {name}=") for name in names]
    assert positions == sorted(positions)
