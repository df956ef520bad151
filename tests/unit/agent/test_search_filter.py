"""Searches keep the rules: grep and glob over a folder never show what a Read deny or a secret file covers."""

import json
from pathlib import Path

import pytest

from decode.agent.compose import LoopOptions, build_loop
from decode.config.settings import Settings
from tests.conftest import own_settings


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    (root / "secrets").mkdir(parents=True)
    (root / "src").mkdir()
    (root / "secrets" / "key").write_text("TOKEN=sk-live-123\n")
    (root / ".env").write_text("TOKEN=sk-env-456\n")
    (root / "src" / "app.py").write_text("TOKEN = read_from_env()\n")
    (root / ".decode").mkdir()
    (root / ".decode" / "settings.json").write_text(json.dumps({"permissions": {"deny": ["Read(./secrets/**)"]}}))
    return root


async def run_tools(project: Path, tmp_path: Path, calls: list[dict]) -> list[str]:
    """Each call's result, in the order of `calls` (parallel calls may finish in any order)."""
    script = tmp_path / "script.json"
    script.write_text(json.dumps([{"tool_calls": calls}, {"text": "done"}]))
    options = LoopOptions(home=project, model=f"script:{script}")
    loop = build_loop(options, Settings(_env_file=None)).loop
    started: list[str] = []
    results: dict[str, str] = {}
    async for event in loop.run_turn("search"):
        if event.kind == "tool_call":
            started.append(event.call.id)
        elif event.kind == "tool_result":
            results[event.result.call_id] = event.result.content
    return [results[call_id] for call_id in started]


async def test_grep_over_the_project_skips_denied_and_secret_files(project: Path, tmp_path: Path) -> None:
    [found, content] = await run_tools(
        project,
        tmp_path,
        [
            {"name": "grep", "args": {"pattern": "TOKEN"}},
            {"name": "grep", "args": {"pattern": "sk-", "output_mode": "content"}},
        ],
    )
    assert found == "src/app.py"
    assert "sk-live" not in content
    assert "sk-env" not in content
    assert "No matches" in content  # and nothing says a hidden file matched


async def test_glob_does_not_list_them_either(project: Path, tmp_path: Path) -> None:
    [listed] = await run_tools(project, tmp_path, [{"name": "glob", "args": {"pattern": "**/*"}}])
    names = listed.splitlines()
    assert "src/app.py" in names
    assert "secrets/key" not in names
    assert ".env" not in names


async def test_an_allow_rule_naming_the_secret_file_shows_it(project: Path, tmp_path: Path) -> None:
    (project / ".decode" / "settings.json").write_text("{}")
    own_settings(project / ".decode" / "settings.local.json", json.dumps({"permissions": {"allow": ["Read(.env)"]}}))
    [content] = await run_tools(
        project, tmp_path, [{"name": "grep", "args": {"pattern": "sk-", "output_mode": "content"}}]
    )
    assert ".env:1:TOKEN=sk-env-456" in content
    assert "sk-live" in content  # no deny any more: the secrets folder is an ordinary folder now
