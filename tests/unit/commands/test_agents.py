"""`decode agents`: each agent on a line (name, source, file and tools), its description under it."""

from collections.abc import Callable
from pathlib import Path

from click.testing import CliRunner

from decode.commands.agents import agents, shown_path


def test_agents_lists_builtins_and_project_files_and_names_a_broken_one(
    project: Path, trust_settings: Callable[[Path], Path]
) -> None:
    folder = project / ".decode" / "agents"
    folder.mkdir(parents=True)
    (folder / "tester.md").write_text(
        "---\nname: tester\ndescription: Runs the tests.\ntools: read, bash\npermissionMode: acceptEdits\n---\n"
    )
    (folder / "bad.md").write_text("no front matter\n")
    trust_settings(project)  # the project's agent chooses accept-edits: in force once trusted

    result = CliRunner().invoke(agents, [])

    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "build          built-in           all tools (default)"
    assert "tester         project            .decode/agents/tester.md · read, bash · accept-edits mode" in lines
    assert lines[lines.index(next(line for line in lines if line.startswith("tester"))) + 1] == "    Runs the tests."
    assert f"decode: warning: agent skipped: {folder / 'bad.md'}: no front matter" in result.stderr


def test_paths_are_shown_as_a_user_types_them(tmp_path: Path) -> None:
    home = Path.home()
    assert shown_path(tmp_path / "p" / ".decode" / "agents" / "a.md", tmp_path / "p") == ".decode/agents/a.md"
    assert shown_path(home / ".decode" / "agents" / "a.md", tmp_path / "p") == "~/.decode/agents/a.md"
    assert shown_path(None, tmp_path) == ""
