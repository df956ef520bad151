"""Memory files: where they are looked for, in which order, and the cap on the notes file."""

import os
import threading
from pathlib import Path

import pytest

from decode.config.safe_read import MAX_BYTES
from decode.memory.files import MEMORY_CAP, PROJECT_NOTES, USER_MEMORY, MemoryFile, keep_newest, load_memory
from tests.conftest import WriteText


@pytest.fixture
def nested(tmp_path: Path, write: WriteText) -> Path:
    """repo/AGENTS.md, repo/pkg/AGENTS.md, and the working directory repo/pkg/sub (no file of its own)."""
    write(tmp_path / "repo" / "AGENTS.md", "repo rules")
    write(tmp_path / "repo" / "pkg" / "AGENTS.md", "pkg rules")
    (tmp_path / "repo" / "pkg" / "sub").mkdir()
    return tmp_path / "repo" / "pkg" / "sub"


def test_user_file_then_root_down_to_the_working_directory_then_notes(nested: Path, write: WriteText) -> None:
    home = Path.home()  # a fresh tmp dir, set by the suite's autouse fixture
    write(home / USER_MEMORY, "user rules")
    write(nested / "AGENTS.md", "sub rules")
    write(nested / PROJECT_NOTES, "- earlier: notes")

    loaded = load_memory(nested)

    assert [file.text for file in loaded] == ["user rules", "repo rules", "pkg rules", "sub rules", "- earlier: notes"]
    assert [file.scope for file in loaded] == ["user", "project", "project", "project", "notes"]
    assert loaded[1].path == (nested.parent.parent / "AGENTS.md").resolve()


def test_nearest_agents_file_comes_last(nested: Path) -> None:
    loaded = load_memory(nested)

    assert [file.text for file in loaded] == ["repo rules", "pkg rules"]


def test_files_outside_the_chain_are_not_loaded(nested: Path, write: WriteText) -> None:
    write(nested.parent.parent / "other" / "AGENTS.md", "sibling rules")
    write(nested / "deeper" / "AGENTS.md", "child rules")

    texts = [file.text for file in load_memory(nested)]

    assert "sibling rules" not in texts
    assert "child rules" not in texts


def test_no_memory_files_loads_nothing(tmp_path: Path) -> None:
    assert load_memory(tmp_path) == []


def test_empty_files_are_skipped(tmp_path: Path, write: WriteText) -> None:
    write(tmp_path / "AGENTS.md", "  \n\n")

    assert load_memory(tmp_path) == []


def test_a_file_named_twice_is_read_once(tmp_path: Path, write: WriteText) -> None:
    """When the home directory is also an ancestor, ~/AGENTS.md is one file, read once."""
    project = tmp_path / "project"
    write(project / "AGENTS.md", "project rules")
    (tmp_path / "link").symlink_to(project)

    loaded = load_memory(tmp_path / "link")

    assert [file.text for file in loaded] == ["project rules"]


def test_invalid_bytes_do_not_hide_the_file(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").write_bytes(b"use tabs \xff please")

    assert load_memory(tmp_path)[0].text == "use tabs \ufffd please"


def test_a_directory_named_like_a_memory_file_is_ignored(tmp_path: Path) -> None:
    (tmp_path / "AGENTS.md").mkdir()

    assert load_memory(tmp_path) == []


def test_notes_under_the_cap_are_loaded_whole(tmp_path: Path, write: WriteText) -> None:
    text = "\n".join(f"- note {i}" for i in range(10))
    write(tmp_path / PROJECT_NOTES, text)

    (notes,) = load_memory(tmp_path)

    assert notes.text == text
    assert notes.omitted_lines == 0


def test_notes_over_the_cap_keep_the_newest_lines(tmp_path: Path, write: WriteText) -> None:
    lines = [f"- note {i:04d} " + "x" * 80 for i in range(200)]
    write(tmp_path / PROJECT_NOTES, "\n".join(lines))

    (notes,) = load_memory(tmp_path)

    assert len(notes.text) <= MEMORY_CAP
    assert notes.text.endswith(lines[-1])
    assert lines[0] not in notes.text
    kept = notes.text.splitlines()
    assert kept == lines[-len(kept) :]  # whole lines, the newest ones, in order
    assert notes.omitted_lines == len(lines) - len(kept)


def test_the_cap_is_a_parameter(tmp_path: Path, write: WriteText) -> None:
    write(tmp_path / PROJECT_NOTES, "one\ntwo\nthree")

    (notes,) = load_memory(tmp_path, cap=10)

    assert (notes.text, notes.omitted_lines) == ("two\nthree", 1)


def test_agents_files_are_not_capped(tmp_path: Path, write: WriteText) -> None:
    big = "rule\n" * (MEMORY_CAP // 2)
    write(tmp_path / "AGENTS.md", big)

    assert load_memory(tmp_path)[0].text == big.strip()


def test_keep_newest_leaves_short_text_alone() -> None:
    assert keep_newest("a\nb", 100) == ("a\nb", 0)


def test_a_link_to_markdown_is_read(tmp_path: Path, write: WriteText) -> None:
    write(tmp_path / "CLAUDE.md", "shared rules")
    (tmp_path / "AGENTS.md").symlink_to("CLAUDE.md")  # how many projects share one file between agents

    assert [file.text for file in load_memory(tmp_path)] == ["shared rules"]


@pytest.mark.parametrize("target", [".env", "credentials"])
def test_a_link_to_anything_else_is_skipped_with_a_warning(
    tmp_path: Path, write: WriteText, caplog: pytest.LogCaptureFixture, target: str
) -> None:
    # Planted by a repository (git keeps symlinks) or a sandboxed command: every request would carry it.
    write(tmp_path / target, "GEMINI_API_KEY=sk-secret")
    (tmp_path / "AGENTS.md").symlink_to(target)

    assert load_memory(tmp_path) == []
    assert "not a Markdown file; skipped" in caplog.text


def test_a_fifo_agents_file_is_skipped_at_once_with_one_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    os.mkfifo(tmp_path / "AGENTS.md")  # a blocking open would wait for a writer for ever
    found: list[list[MemoryFile]] = []
    worker = threading.Thread(target=lambda: found.append(load_memory(tmp_path, home=tmp_path / "home")), daemon=True)
    worker.start()
    worker.join(timeout=30)  # generous: a non-blocking open returns at once
    if worker.is_alive():
        with open(tmp_path / "AGENTS.md", "wb"):
            pass
        pytest.fail("reading a FIFO AGENTS.md waited for a writer")
    assert found == [[]]
    assert caplog.messages == [f"memory: {tmp_path / 'AGENTS.md'}: is not a regular file; skipped"]


def test_a_huge_agents_file_is_skipped_with_one_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "AGENTS.md").write_bytes(b"x" * (MAX_BYTES + 1))
    assert load_memory(tmp_path, home=tmp_path / "home") == []
    assert caplog.messages == [f"memory: {tmp_path / 'AGENTS.md'}: is larger than 1 MiB; skipped"]


def test_claude_code_files_are_read_at_every_level(nested: Path, write: WriteText) -> None:
    home = Path.home()
    write(home / ".claude" / "CLAUDE.md", "claude user rules")
    write(home / USER_MEMORY, "decode user rules")
    write(nested.parent / "CLAUDE.md", "pkg claude rules")
    write(nested.parent / "CLAUDE.local.md", "pkg local rules")
    write(nested / ".claude" / "CLAUDE.md", "sub claude rules")

    loaded = load_memory(nested)

    assert [file.text for file in loaded] == [
        "claude user rules",
        "decode user rules",
        "repo rules",
        "pkg rules",
        "pkg claude rules",
        "pkg local rules",
        "sub claude rules",
    ]
    assert [file.scope for file in loaded[:3]] == ["user", "user", "project"]


@pytest.mark.parametrize(
    "how", ["agents links to claude", "claude links to agents", "hard link", "claude imports agents"]
)
def test_agents_and_claude_in_one_folder_are_read_once(tmp_path: Path, write: WriteText, how: str) -> None:
    write(tmp_path / "AGENTS.md", "shared rules")
    if how == "agents links to claude":
        (tmp_path / "AGENTS.md").rename(tmp_path / "CLAUDE.md")
        (tmp_path / "AGENTS.md").symlink_to("CLAUDE.md")
    elif how == "claude links to agents":
        (tmp_path / "CLAUDE.md").symlink_to("AGENTS.md")
    elif how == "hard link":
        os.link(tmp_path / "AGENTS.md", tmp_path / "CLAUDE.md")
    else:
        write(tmp_path / "CLAUDE.md", "@AGENTS.md")

    texts = [file.text for file in load_memory(tmp_path)]

    assert texts.count("shared rules") == 1
