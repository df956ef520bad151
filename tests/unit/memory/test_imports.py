"""`@path` imports in memory files: where they point, how deep they go, and what a repository may not pull in."""

import os
from pathlib import Path

import pytest

from decode.memory.files import read_memory
from decode.memory.imports import MAX_HOPS, import_targets
from decode.memory.instructions import render_memory
from tests.conftest import WriteText


def test_targets_are_found_in_prose_but_never_in_code() -> None:
    text = """See @docs/style.md and @~/.claude/mine.md, also `@not/this.md` here.
@README

```
@inside/a/block.md
```

    @indented/block.md

Mail me at me@example.com (@paren.md) or read @docs/style.md again.
"""
    assert import_targets(text) == ["docs/style.md", "~/.claude/mine.md", "README", "paren.md"]


def test_an_import_follows_the_file_that_names_it(tmp_path: Path, write: WriteText) -> None:
    write(tmp_path / "CLAUDE.md", "Project rules. See @docs/style.md for style.")
    write(tmp_path / "docs" / "style.md", "Use tabs.")
    write(tmp_path / "CLAUDE.local.md", "my own rules")

    files = read_memory(tmp_path).files

    assert [(f.path.name, f.imported_by) for f in files] == [
        ("CLAUDE.md", None),
        ("style.md", tmp_path / "CLAUDE.md"),
        ("CLAUDE.local.md", None),
    ]
    text = render_memory(files)
    assert f"## {tmp_path / 'docs' / 'style.md'} (project instructions, imported by {tmp_path / 'CLAUDE.md'})" in text
    assert text.index("Use tabs.") < text.index("my own rules")


def test_a_path_is_relative_to_the_importing_file(tmp_path: Path, write: WriteText) -> None:
    write(tmp_path / "AGENTS.md", "@docs/a.md")
    write(tmp_path / "docs" / "a.md", "a, then @b.md")  # docs/b.md, not ./b.md
    write(tmp_path / "docs" / "b.md", "b")
    write(tmp_path / "b.md", "the wrong b")

    assert [f.text for f in read_memory(tmp_path).files] == ["@docs/a.md", "a, then @b.md", "b"]


def test_a_cycle_ends_and_each_file_is_read_once(tmp_path: Path, write: WriteText) -> None:
    write(tmp_path / "AGENTS.md", "agents, see @CLAUDE.md")
    write(tmp_path / "CLAUDE.md", "claude, see @AGENTS.md")  # the usual pair, each naming the other

    load = read_memory(tmp_path)

    assert [f.path.name for f in load.files] == ["AGENTS.md", "CLAUDE.md"]
    assert load.problems == []


def test_imports_go_five_hops_deep_and_the_sixth_is_named(tmp_path: Path, write: WriteText) -> None:
    write(tmp_path / "AGENTS.md", "@f1.md")
    for hop in range(1, MAX_HOPS + 2):
        write(tmp_path / f"f{hop}.md", f"file {hop} @f{hop + 1}.md")

    load = read_memory(tmp_path)

    assert [f.path.name for f in load.files] == ["AGENTS.md", *(f"f{hop}.md" for hop in range(1, MAX_HOPS + 1))]
    assert load.problems == [f"{tmp_path / 'f5.md'}: @f6.md not imported: imports go at most 5 deep"]


def test_a_missing_file_is_named_once(tmp_path: Path, write: WriteText) -> None:
    write(tmp_path / "AGENTS.md", "@gone.md and again @gone.md")

    load = read_memory(tmp_path)

    assert [f.path.name for f in load.files] == ["AGENTS.md"]
    assert load.problems == [f"{tmp_path / 'AGENTS.md'}: @gone.md not imported: no such file"]


def test_home_relative_imports_and_any_file_type_inside_the_project(tmp_path: Path, write: WriteText) -> None:
    home = Path.home()
    write(home / ".claude" / "my-project-instructions.md", "my preferences")
    write(tmp_path / "package.json", '{"scripts": {"test": "vitest"}}')
    write(tmp_path / "CLAUDE.md", "@~/.claude/my-project-instructions.md and @package.json")

    assert [f.text for f in read_memory(tmp_path).files][1:] == ["my preferences", '{"scripts": {"test": "vitest"}}']


@pytest.mark.parametrize(
    ("target", "why"),
    [
        ("@~/.ssh/id_rsa", "named like a secret"),
        ("@~/.aws/credentials", "outside the project"),
        ("@../outside.md", "outside the project"),
        ("@.env", "named like a secret"),
        ("@~/.claude/.credentials.json", "outside the project"),
        ("@linked.md", "outside the project"),  # a link inside the project, to Markdown outside it
    ],
)
def test_a_repository_cannot_import_a_secret(tmp_path: Path, write: WriteText, target: str, why: str) -> None:
    home = Path.home()
    write(home / ".ssh" / "id_rsa", "PRIVATE KEY")
    write(home / ".aws" / "credentials", "aws_secret_access_key=x")
    write(home / ".claude" / ".credentials.json", '{"token": "x"}')
    write(tmp_path / "outside.md", "SECRET outside")
    project = tmp_path / "clone"
    write(project / ".env", "API_KEY=SECRET")
    (project / "linked.md").symlink_to(tmp_path / "outside.md")
    write(project / "CLAUDE.md", f"planted: {target}")

    load = read_memory(project)

    assert [f.path.name for f in load.files] == ["CLAUDE.md"]
    assert all("SECRET" not in f.text and "KEY" not in f.text for f in load.files)
    (problem,) = load.problems
    assert problem.startswith(f"{project / 'CLAUDE.md'}: {target} not imported: {why}")


def test_the_users_own_file_may_import_outside_a_project_but_never_a_secret(tmp_path: Path, write: WriteText) -> None:
    home = Path.home()
    write(home / "notes" / "style.txt", "my style")
    write(home / ".ssh" / "id_ed25519", "PRIVATE KEY")
    write(home / ".decode" / "AGENTS.md", "@~/notes/style.txt @~/.ssh/id_ed25519")

    load = read_memory(tmp_path / "project")

    assert [f.text for f in load.files] == ["@~/notes/style.txt @~/.ssh/id_ed25519", "my style"]
    assert load.problems == [f"{home / '.decode' / 'AGENTS.md'}: @~/.ssh/id_ed25519 not imported: named like a secret"]


def test_an_import_linking_to_something_not_markdown_is_refused(tmp_path: Path, write: WriteText) -> None:
    write(tmp_path / "data.txt", "data")
    (tmp_path / "notes.md").symlink_to("data.txt")
    write(tmp_path / "AGENTS.md", "@notes.md")

    load = read_memory(tmp_path)

    assert [f.path.name for f in load.files] == ["AGENTS.md"]
    assert load.problems == [f"{tmp_path / 'notes.md'} links to data.txt, not a Markdown file; skipped"]


def test_a_fifo_import_is_refused_in_one_line(tmp_path: Path, write: WriteText) -> None:
    os.mkfifo(tmp_path / "pipe.md")  # a blocking open would wait for a writer for ever
    write(tmp_path / "AGENTS.md", "@pipe.md")

    load = read_memory(tmp_path)

    assert [f.path.name for f in load.files] == ["AGENTS.md"]
    assert load.problems == [f"{tmp_path / 'pipe.md'}: is not a regular file; skipped"]


def test_notes_never_import(tmp_path: Path, write: WriteText) -> None:
    write(tmp_path / ".decode" / "MEMORY.md", "- a note: @secret.md")
    write(tmp_path / "secret.md", "not for the notes")

    assert [f.path.name for f in read_memory(tmp_path).files] == ["MEMORY.md"]
