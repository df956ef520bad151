"""A custom command's `allowed-tools` and `model` in a real terminal: they hold for its turn, and the
next turn has the session's rules and model again; a repository's command grants nothing untrusted."""

import json
import subprocess
from pathlib import Path

import pytest

from tests.integration.conftest import Terminal, bash

pytestmark = pytest.mark.integration

STAMP = """---
description: Stamp the project
allowed-tools: Bash(touch:*), Bash(git status:*)
model: script:stamp.json
---
Stamp the project. !`touch from-its-line`
"""


def _project(tmp_path: Path, name: str) -> Path:
    project = tmp_path / name
    project.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    (project / "stamp.json").write_text(json.dumps([bash("touch stamped"), {"text": "Stamped by its model."}]))
    (project / "turns.json").write_text(json.dumps([bash("touch later"), {"text": "The session's model."}]))
    return project


def test_a_users_command_allows_its_tools_and_uses_its_model_for_its_turn(
    terminal: Terminal, tmp_path: Path, decode: str
) -> None:
    project = _project(tmp_path, "shop")
    command = Path.home() / ".claude" / "commands" / "stamp.md"
    command.parent.mkdir(parents=True)
    command.write_text(STAMP)
    terminal.start(f"{decode} --model script:turns.json", project, size=(140, 40))
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")

    terminal.submit("/stamp")
    screen = terminal.wait_for_text("Stamped by its model.")
    assert "/stamp: this turn allows Bash(touch:*), Bash(git status:*)" in screen
    assert "/stamp: this turn uses script:stamp.json" in screen
    assert (project / "from-its-line").exists()  # its `!` line ran without a question
    assert (project / "stamped").exists()  # and so did its turn's call
    assert "permission needed" not in screen

    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the command's turn over")
    terminal.submit("and now?")  # the session's model again, and its rules: `touch` asks
    terminal.wait_for_text("allow bash(touch later)?")
    terminal.type("n")
    terminal.wait_for_text("The session's model.")
    assert not (project / "later").exists()


def test_an_untrusted_repositorys_command_grants_nothing(terminal: Terminal, tmp_path: Path, decode: str) -> None:
    project = _project(tmp_path, "clone")
    command = project / ".claude" / "commands" / "stamp.md"
    command.parent.mkdir(parents=True)
    command.write_text(STAMP)
    terminal.start(f"{decode} --model script:turns.json", project, size=(140, 40))
    terminal.wait_for_text("Trust them?")  # the command's allowed-tools wait for Project Trust
    terminal.submit("no")
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")

    terminal.submit("/stamp")
    terminal.wait_for_text("its allowed-tools grant nothing: the project's settings are not trusted")
    terminal.wait_for_text("allow bash(touch from-its-line)?")  # its `!` line asks as any bash call
    terminal.type("n")
    terminal.wait_for_text("allow bash(touch stamped)?")  # so does its turn's call (its model still answers)
    terminal.type("n")
    terminal.wait_for_text("Stamped by its model.")
    assert not (project / "stamped").exists()
    assert not (project / "from-its-line").exists()
