"""`edit`: unique exact matches, stale-file protection, CRLF/BOM round trips, helpful misses."""

from pathlib import Path

import pytest
from pydantic_ai import ModelRetry, RunContext, ToolFailed

from decode.entities.deps import AgentDeps
from decode.tools.edit import closest_lines, edit
from decode.tools.read import read


def on_disk(path: Path) -> str:
    """What the file holds now, read straight from the disk (not through the tools)."""
    return path.read_text()


CODE = "def add(a, b):\n    return a - b\n\n\ndef sub(a, b):\n    return a - b\n"


@pytest.fixture
async def calc(ctx: RunContext[AgentDeps], workspace: Path) -> Path:
    path = workspace / "calc.py"
    path.write_text(CODE)
    await read(ctx, "calc.py")
    return path


async def test_a_unique_match_is_replaced(ctx: RunContext[AgentDeps], calc: Path) -> None:
    result = await edit(ctx, "calc.py", "def add(a, b):\n    return a - b", "def add(a, b):\n    return a + b")
    assert result == "Edited calc.py: replaced 1 occurrence at line 1."
    assert on_disk(calc) == CODE.replace("return a - b", "return a + b", 1)


async def test_an_ambiguous_match_is_refused_with_its_lines(ctx: RunContext[AgentDeps], calc: Path) -> None:
    with pytest.raises(ToolFailed, match=r"matches 2 times in calc\.py \(lines 2, 6\)"):
        await edit(ctx, "calc.py", "return a - b", "return a + b")
    assert on_disk(calc) == CODE


async def test_replace_all_changes_every_match(ctx: RunContext[AgentDeps], calc: Path) -> None:
    assert await edit(ctx, "calc.py", "a - b", "b - a", replace_all=True) == "Edited calc.py: replaced 2 occurrences."
    assert on_disk(calc).count("b - a") == 2


async def test_an_unread_file_is_refused(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "other.py").write_text("x = 1\n")
    with pytest.raises(ToolFailed, match="has not been read in this session"):
        await edit(ctx, "other.py", "x = 1", "x = 2")


async def test_a_file_changed_since_it_was_read_is_refused(
    ctx: RunContext[AgentDeps], calc: Path, workspace: Path
) -> None:
    (workspace / "calc.py").write_text(CODE + "# the user typed this\n")  # the user saved it
    with pytest.raises(ToolFailed, match="changed on disk since you last read it"):
        await edit(ctx, "calc.py", "def add", "def plus")
    assert on_disk(calc).endswith("# the user typed this\n")


async def test_consecutive_edits_need_no_new_read(ctx: RunContext[AgentDeps], calc: Path) -> None:
    await edit(ctx, "calc.py", "def add", "def plus")
    await edit(ctx, "calc.py", "def sub", "def minus")
    assert "def plus" in on_disk(calc)
    assert "def minus" in on_disk(calc)


async def test_crlf_and_bom_survive_an_edit(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    path = workspace / "win.py"
    path.write_bytes(b"\xef\xbb\xbfa = 1\r\nb = 2\r\nc = 3\r\n")
    await read(ctx, "win.py")
    await edit(ctx, "win.py", "a = 1\nb = 2", "a = 10\nb = 20")  # the model writes \n, as read showed it
    assert path.read_bytes() == b"\xef\xbb\xbfa = 10\r\nb = 20\r\nc = 3\r\n"


async def test_a_miss_shows_the_closest_lines(ctx: RunContext[AgentDeps], calc: Path) -> None:
    with pytest.raises(ToolFailed) as caught:
        await edit(ctx, "calc.py", "def sub(a,b):\n  return a-b", "x")
    message = str(caught.value)
    assert "old_string was not found in calc.py" in message
    assert "closest text is at line 5" in message
    assert "     5\tdef sub(a, b):" in message


def test_closest_lines_gives_up_when_nothing_is_close() -> None:
    assert closest_lines("alpha\nbeta\n", "completely different text here") is None


async def test_nonsense_requests_ask_for_a_retry(ctx: RunContext[AgentDeps], calc: Path) -> None:
    with pytest.raises(ModelRetry, match="old_string is empty"):
        await edit(ctx, "calc.py", "", "x")
    with pytest.raises(ModelRetry, match="the same"):
        await edit(ctx, "calc.py", "add", "add")
    with pytest.raises(ToolFailed, match="does not exist"):
        await edit(ctx, "missing.py", "a", "b")


async def test_non_utf8_files_are_left_alone(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    path = workspace / "latin1.txt"
    path.write_bytes("café\n".encode("latin-1"))
    await read(ctx, "latin1.txt")
    with pytest.raises(ToolFailed, match="not UTF-8"):
        await edit(ctx, "latin1.txt", "caf", "bar")
    assert path.read_bytes() == "café\n".encode("latin-1")


MIXED = b"one = 1\r\ntwo = 2\nthree = 3\r\nfour = 4\n"


async def test_a_mixed_line_ending_file_is_edited_as_read_shows_it(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    path = workspace / "mixed.py"
    path.write_bytes(MIXED)
    shown = await read(ctx, "mixed.py")
    assert "\r" not in shown  # the model sees `\n` lines and quotes them so
    result = await edit(ctx, "mixed.py", "one = 1\ntwo = 2\nthree = 3", "one = 10\ntwo = 20\nthree = 30")
    assert result == "Edited mixed.py: replaced 1 occurrence at line 1."
    assert path.read_bytes() == b"one = 10\r\ntwo = 20\nthree = 30\r\nfour = 4\n"  # each line's ending kept


async def test_lines_added_to_a_mixed_file_take_its_most_common_ending(
    ctx: RunContext[AgentDeps], workspace: Path
) -> None:
    path = workspace / "mixed.txt"
    path.write_bytes(b"a\r\nb\r\nc\n")
    await read(ctx, "mixed.txt")
    await edit(ctx, "mixed.txt", "b\nc", "b\nb2\nb3\nc")
    assert path.read_bytes() == b"a\r\nb\r\nb2\r\nb3\r\nc\n"
