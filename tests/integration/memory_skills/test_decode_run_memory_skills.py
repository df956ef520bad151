"""`decode run` reads memory and skills as a user sets them up: real files, a real process, a
model server on 127.0.0.1 that records the instructions it was sent."""

import json
from pathlib import Path

import pytest

from tests.conftest import WriteText

pytestmark = pytest.mark.integration


@pytest.fixture
def nested_project(tmp_path: Path, write: WriteText) -> Path:
    """~/.decode/AGENTS.md, repo/AGENTS.md, repo/app/AGENTS.md, repo/app/.decode/MEMORY.md; cwd repo/app."""
    write(Path.home() / ".decode" / "AGENTS.md", "USER: answer briefly.")
    write(tmp_path / "repo" / "AGENTS.md", "REPO: tests run with make test.")
    app = tmp_path / "repo" / "app"
    write(app / "AGENTS.md", "APP: this folder is the web app.")
    write(app / ".decode" / "MEMORY.md", "- 2025-01-01 10:00 UTC: NOTE: fixed the login bug.")
    return app


def test_memory_reaches_the_model_in_order_under_path_headers(nested_project: Path, model_server, decode_cmd) -> None:
    done = decode_cmd(
        "run",
        "--model",
        "openai-compatible:local",
        "hi",
        cwd=nested_project,
        env={"OPENAI_BASE_URL": model_server.base_url},
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout == "ok\n"
    system = model_server.facts_text()
    order = [system.index(marker) for marker in ("USER:", "REPO:", "APP:", "NOTE:")]
    assert order == sorted(order)
    assert "## ~/.decode/AGENTS.md (user instructions)\nUSER: answer briefly." in system
    assert f"## {nested_project / 'AGENTS.md'} (project instructions)\nAPP:" in system
    assert f"## {nested_project / '.decode' / 'MEMORY.md'} (notes from earlier sessions)\n- 2025" in system


def test_skills_catalogue_reaches_the_model_and_a_malformed_skill_is_named(
    project: Path, model_server, decode_cmd, write: WriteText
) -> None:
    write(project / ".decode/skills/deploy/SKILL.md", "---\nname: deploy\ndescription: Ship to prod.\n---\nSteps.")
    broken = write(project / ".decode/skills/broken/SKILL.md", "---\nname: [oops\n---\nbody")

    done = decode_cmd(
        "run", "--model", "openai-compatible:local", "hi", cwd=project, env={"OPENAI_BASE_URL": model_server.base_url}
    )

    assert done.returncode == 0, done.stderr
    system = model_server.facts_text()
    assert "- deploy: Ship to prod." in system
    assert "- commit: " in system
    assert "Steps." not in system  # bodies are loaded on demand, not up front
    assert "broken" not in system
    assert f"skill skipped: {broken}: the front matter is not valid YAML" in done.stderr
    assert done.stderr.count("skill skipped") == 1  # once per run, not once per request
    tool_names = [tool["function"]["name"] for tool in model_server.bodies[-1]["tools"]]
    assert "skill" in tool_names


def test_the_model_loads_a_skill_with_the_skill_tool(project: Path, decode_cmd, write: WriteText) -> None:
    write(project / ".decode/skills/deploy/SKILL.md", "---\nname: deploy\ndescription: Ship it.\n---\nRun make ship.")
    script = write(
        project / "turns.json",
        json.dumps([{"tool_calls": [{"name": "skill", "args": {"name": "deploy"}}]}, {"text": "Shipped."}]),
    )

    done = decode_cmd("run", "--model", f"script:{script}", "deploy please", cwd=project)

    assert done.returncode == 0, done.stderr
    assert done.stdout == "Shipped.\n"
    assert "→ skill" in done.stderr
    assert "✓ skill" in done.stderr


def test_a_headless_run_does_not_write_a_session_note(project: Path, decode_cmd, write: WriteText) -> None:
    script = write(project / "turns.json", json.dumps([{"text": "Done."}]))

    done = decode_cmd("run", "--model", f"script:{script}", "do it", cwd=project)

    assert done.returncode == 0, done.stderr
    assert not (project / ".decode" / "MEMORY.md").exists()
    assert "memory:" not in done.stderr
