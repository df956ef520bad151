"""`@path` mentions attach a file as `read` shows it (and count as its read), a folder as its entries.

The tests that take `deps` or `ctx` run against both executors (see conftest.py).
"""

from dataclasses import replace
from pathlib import Path

import pytest
from pydantic import SecretStr
from pydantic_ai import RunContext, ToolFailed

from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.entities.tools import ToolSpec
from decode.tools.edit import edit
from decode.tools.mention_text import OPEN, typed_part
from decode.tools.mentions import MAX_ATTACHED, MAX_ENTRIES, attach_mentions
from decode.tools.read import read

CODE = "def add(a, b):\n    return a - b\n"


def on_disk(path: Path) -> str:
    """What the file holds now, read straight from the disk (not through the tools)."""
    return path.read_text()


@pytest.fixture
def calc(workspace: Path) -> Path:
    path = workspace / "calc.py"
    path.write_text(CODE)
    return path


async def test_a_file_goes_as_read_shows_it_after_the_prompt_as_typed(
    deps: AgentDeps, ctx: RunContext[AgentDeps], calc: Path
) -> None:
    prompt = "fix add in @calc.py, please"  # the comma ends the path
    result = await attach_mentions(deps, prompt)
    assert [(item.path, item.summary) for item in result.attached] == [("calc.py", "2 lines")]
    assert result.refused == []
    assert result.text.startswith(prompt + OPEN)
    assert typed_part(result.text) == prompt
    assert f'<file path="calc.py">\n{await read(ctx, "calc.py")}\n</file>' in result.text
    assert "     2\t    return a - b" in result.text


async def test_an_attached_file_counts_as_read_so_it_can_be_edited_at_once(
    deps: AgentDeps, ctx: RunContext[AgentDeps], calc: Path
) -> None:
    with pytest.raises(ToolFailed, match="has not been read in this session"):
        await edit(ctx, "calc.py", "a - b", "a + b")
    await attach_mentions(deps, "fix @calc.py")
    assert await edit(ctx, "calc.py", "a - b", "a + b") == "Edited calc.py: replaced 1 occurrence at line 2."
    assert on_disk(calc) == CODE.replace("a - b", "a + b")


async def test_a_long_file_sends_its_first_page_and_how_to_read_on(deps: AgentDeps, workspace: Path) -> None:
    (workspace / "long.txt").write_text("".join(f"line {n}\n" for n in range(1, 2501)))
    result = await attach_mentions(deps, "@long.txt")
    assert result.attached[0].summary == "2,000 lines, more follow"
    assert "[lines 1-2000 of long.txt; more follow: read with offset=2001 to continue]" in result.text
    assert "line 2001" not in result.text


async def test_a_name_that_is_nothing_an_email_and_a_word_stay_text(deps: AgentDeps, calc: Path) -> None:
    prompt = "ask @alice, mail me@calc.py or see @../nowhere/x"
    result = await attach_mentions(deps, prompt)
    assert (result.text, result.attached, result.refused) == (prompt, [], [])


async def test_a_binary_file_is_refused_in_one_line_and_not_sent(deps: AgentDeps, workspace: Path) -> None:
    (workspace / "song.mp3").write_bytes(b"ID3" + bytes(64))
    result = await attach_mentions(deps, "what is @song.mp3?")
    assert result.text == "what is @song.mp3?"
    assert result.refused == ["@song.mp3 not attached: song.mp3 is not a text file (audio/mpeg, 67 bytes)"]


async def test_a_file_outside_the_workspace_is_refused(deps: AgentDeps, workspace: Path) -> None:
    (workspace.parent / "outside.txt").write_text("not yours\n")
    result = await attach_mentions(deps, "read @../outside.txt")
    assert result.text == "read @../outside.txt"
    (line,) = result.refused
    assert line.startswith("@../outside.txt not attached: ../outside.txt is outside the working directory")


async def test_what_the_check_refuses_is_neither_sent_nor_recorded_as_read(
    deps: AgentDeps, ctx: RunContext[AgentDeps], calc: Path
) -> None:
    asked: list[tuple[str, dict[str, str]]] = []

    async def check(spec: ToolSpec, args: dict[str, str]) -> str | None:
        asked.append((spec.name, args))
        return "denied by Read(calc.py)"

    result = await attach_mentions(deps, "fix @calc.py", check)
    assert result.text == "fix @calc.py"
    assert result.refused == ["@calc.py not attached: denied by Read(calc.py)"]
    assert asked == [("read", {"path": "calc.py"})]
    with pytest.raises(ToolFailed, match="has not been read in this session"):
        await edit(ctx, "calc.py", "a - b", "a + b")


async def test_a_folder_sends_its_entries_as_glob_would_show_them(deps: AgentDeps, tree: Path) -> None:
    result = await attach_mentions(deps, "what is in @src/ and @./")
    src, top = result.attached
    assert (src.path, src.summary, top.path) == ("src/", "5 entries", "./")
    assert src.block == (
        '<folder path="src/">\nsrc/.gitignore\nsrc/main.py\nsrc/pkg/\nsrc/top-only.txt\nsrc/util.py\n</folder>\n'
    )
    assert "build/" not in top.block  # ignored by .gitignore
    assert "app.log" not in top.block
    assert "\nsrc/\n" in top.block


async def test_a_big_folder_sends_at_most_max_entries(deps: AgentDeps, workspace: Path) -> None:
    for n in range(MAX_ENTRIES + 20):
        (workspace / "many" / f"f{n:03}.txt").parent.mkdir(exist_ok=True)
        (workspace / "many" / f"f{n:03}.txt").write_text("x")
    (item,) = (await attach_mentions(deps, "@many")).attached
    assert item.summary == f"{MAX_ENTRIES} entries, more not shown"
    assert item.block.count("many/f") == MAX_ENTRIES
    assert "[more entries not shown; mention a folder inside, or use glob]" in item.block


async def test_a_prompt_attaches_at_most_max_attached(deps: AgentDeps, workspace: Path) -> None:
    for n in range(MAX_ATTACHED + 2):
        (workspace / f"f{n}.txt").write_text(f"text {n}\n")
    prompt = " ".join(f"@f{n}.txt" for n in range(MAX_ATTACHED + 2)) + " @f0.txt"
    result = await attach_mentions(deps, prompt)
    assert [item.path for item in result.attached] == [f"f{n}.txt" for n in range(MAX_ATTACHED)]
    assert result.refused[0] == f"@f{MAX_ATTACHED}.txt not looked at: a prompt attaches at most {MAX_ATTACHED}"
    assert len(result.refused) == 3


async def test_the_same_file_twice_is_attached_once(deps: AgentDeps, calc: Path) -> None:
    result = await attach_mentions(deps, "@calc.py and @./calc.py")
    assert [item.path for item in result.attached] == ["calc.py"]


async def test_decodes_own_keys_are_redacted_from_an_attachment(deps: AgentDeps, workspace: Path) -> None:
    key = "sk-or-0123456789abcdef"
    (workspace / "notes.txt").write_text(f"OPENROUTER_API_KEY={key}\n")
    settings = Settings(_env_file=None, openrouter_api_key=SecretStr(key))  # type: ignore[call-arg]
    result = await attach_mentions(replace(deps, settings=settings), "@notes.txt")
    assert key not in result.text
    assert "OPENROUTER_API_KEY=[REDACTED:OPENROUTER_API_KEY]" in result.text
