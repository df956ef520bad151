"""A Claude Code project works unchanged in `decode run`: a copy of a project's `.claude/` folder (skills
in anthropics/skills' layout, commands) and a CLAUDE.md with imports, through the real CLI, against a
model server on 127.0.0.1 that records what decode sent and answers with the tool calls a test sets."""

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import WriteText

pytestmark = pytest.mark.integration

FIXTURE = Path(__file__).parent / "claude_project"


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    """A scratch copy of the Claude Code project in `claude_project/`."""
    return shutil.copytree(FIXTURE, tmp_path / "shop", symlinks=True)


def _tool_results(body: dict) -> str:
    return "\n".join(m["content"] for m in body["messages"] if m["role"] == "tool")


def test_memory_imports_subfolder_memory_and_skills_reach_the_model(shop: Path, model_server, decode_cmd) -> None:
    model_server.calls = [("read", {"path": "web/ui/button.tsx"}), ("skill", {"name": "changelog-writer"})]

    done = decode_cmd(
        "run",
        "--model",
        "openai-compatible:local",
        "release it",
        cwd=shop,
        env={"OPENAI_BASE_URL": model_server.base_url},
    )

    assert done.returncode == 0, done.stderr
    assert "skill skipped" not in done.stderr
    assert "not imported" not in done.stderr  # `@not-an-import.md` sits in a code span
    first, after_read, after_skill = (model_server.facts_text(i) for i in range(3))
    order = [first.index(marker) for marker in ("# Inventory service", "CONVENTIONS-MARKER", "TESTING-MARKER")]
    assert order == sorted(order)
    assert f"## {shop / 'docs' / 'conventions.md'} (project instructions, imported by {shop / 'CLAUDE.md'})" in first
    for name in ("changelog-writer", "sql-review", "brand-voice"):
        assert f"- {name}: " in first
    assert "WEB-MARKER" not in first  # web/CLAUDE.md waits until the agent works in web/
    assert "WEB-MARKER" in after_read
    skill = _tool_results(model_server.bodies[2])
    assert "CHANGELOG-BODY-MARKER" in skill
    for name in ("LICENSE.txt", "reference.md", "scripts/collect.py"):
        assert f"- {name}" in skill
    assert "WEB-MARKER" in after_skill


def test_a_planted_import_of_a_secret_is_named_and_never_sent(
    shop: Path, model_server, decode_cmd, write: WriteText
) -> None:
    write(Path.home() / ".ssh" / "id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----")
    write(shop / ".env", "SHOP_API_KEY=sk-live-secret")
    write(shop / "CLAUDE.md", "Rules. @~/.ssh/id_rsa @../../.env @.env")

    done = decode_cmd(
        "run", "--model", "openai-compatible:local", "hi", cwd=shop, env={"OPENAI_BASE_URL": model_server.base_url}
    )

    assert done.returncode == 0, done.stderr
    sent = json.dumps(model_server.bodies)
    assert "PRIVATE KEY" not in sent
    assert "sk-live-secret" not in sent
    assert f"{shop / 'CLAUDE.md'}: @~/.ssh/id_rsa not imported: named like a secret" in done.stderr
    assert f"{shop / 'CLAUDE.md'}: @.env not imported: named like a secret" in done.stderr


def test_decode_run_expands_a_custom_command_as_claude_p_does(shop: Path, model_server, decode_cmd) -> None:
    done = decode_cmd(
        "run",
        "--model",
        "openai-compatible:local",
        "/fix-issue 12 high",
        cwd=shop,
        env={"OPENAI_BASE_URL": model_server.base_url},
    )

    assert done.returncode == 0, done.stderr
    prompt = model_server.bodies[0]["messages"][-2]["content"]  # the task; the Turn Facts come after it
    assert prompt.startswith("Fix issue #12 with priority high (all arguments: 12 high).")
    assert "CONVENTIONS-MARKER" in prompt  # @docs/conventions.md, attached
    assert "decode: !git status --short: " in done.stderr  # not a repository: git says so, exit 128
    assert f"decode: /fix-issue: {shop / '.claude' / 'commands' / 'fix-issue.md'}" in done.stderr


def test_decode_run_refuses_a_shell_line_that_needs_approval(
    shop: Path, model_server, decode_cmd, write: WriteText
) -> None:
    write(shop / ".claude" / "commands" / "wipe.md", "Wipe: !`touch wiped`")

    done = decode_cmd(
        "run", "--model", "openai-compatible:local", "/wipe", cwd=shop, env={"OPENAI_BASE_URL": model_server.base_url}
    )

    assert done.returncode == 0, done.stderr
    assert not (shop / "wiped").exists()
    assert "no one to approve it here" in done.stderr
    prompt = model_server.bodies[0]["messages"][-2]["content"]
    assert prompt.startswith("Wipe: [`touch wiped` was not run: ")


def test_a_trusted_projects_hooks_guard_record_and_add_context(shop: Path, model_server, decode_cmd) -> None:
    (shop / "build").mkdir()
    model_server.calls = [("bash", {"command": "rm -rf build"}), ("bash", {"command": "ls"})]

    done = decode_cmd(
        "run",
        "--model",
        "openai-compatible:local",
        "--trust-project-settings",
        "tidy the build",
        cwd=shop,
        env={"OPENAI_BASE_URL": model_server.base_url},
    )

    assert done.returncode == 0, done.stderr
    assert (shop / "build").is_dir()  # the PreToolUse hook refused the call
    refused = _tool_results(model_server.bodies[1])
    assert "guard-bash: rm -rf is blocked in this repository; delete files one by one" in refused
    prompt = model_server.bodies[0]["messages"][-2]["content"]
    assert prompt.startswith("tidy the build\n\n<hook-context>\nHOOK-CONTEXT-MARKER: the shop deploys on Fridays")
    (call,) = [json.loads(line) for line in (shop / "hook-calls.jsonl").read_text().splitlines() if line]
    assert call["hook_event_name"] == "PostToolUse"
    assert call["tool_name"] == "Bash"
    assert call["tool_input"]["command"] == "ls"
    assert call["cwd"] == str(shop)


def test_an_untrusted_projects_hooks_do_not_run(shop: Path, model_server, decode_cmd) -> None:
    model_server.calls = [("bash", {"command": "ls"})]

    done = decode_cmd(
        "run", "--model", "openai-compatible:local", "hi", cwd=shop, env={"OPENAI_BASE_URL": model_server.base_url}
    )

    assert done.returncode == 0, done.stderr
    assert not (shop / "hook-calls.jsonl").exists()
    assert "HOOK-CONTEXT-MARKER" not in json.dumps(model_server.bodies)
    assert "not in force until you trust them" in done.stderr
    assert "hook PreToolUse Bash: " in done.stderr
