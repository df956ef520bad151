"""Every "try it" command of a lesson README runs, against that lesson's snapshot, and does what it says.

A README marks what a reader can paste as a fenced block whose info string is `sh try`:

    ```sh try
    decode --version
    DECODE_MAX_REQUESTS=0 decode run "hi"     # a one-line error (exit 2)
    ```

Each line is one command, run with `bash -o pipefail` in a fresh scratch project (its own HOME, no key, no
`DECODE_*` setting; `$LESSON` is the lesson's folder, for the files it ships), one after the
other, so a block can set up what its next line uses. `decode` is the lesson's snapshot, or the
finished package when the info string is `sh try finished`. A command must exit 0, or the code its
comment names as `(exit N)`. A ```` ```text output ```` block right after holds what the block's
last command prints on stdout, with the scratch folder written `<project>`, and must match it.
"""

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.lessons.conftest import lesson_script, pairs_script
from tests.lessons.warm_libraries import WarmLibraries

FENCE = re.compile(r"^```sh try( finished)?\n(.*?)^```\n(?:\n?```text output\n(.*?)^```\n)?", re.DOTALL | re.MULTILINE)
# Any fence that looks meant as a try or an output block; each must be one FENCE reads.
FENCE_LIKE = re.compile(r"^```.*\b(?:try|output)\b.*$", re.MULTILINE)
# `(exit N)` counts only in a line's trailing comment, not inside a quoted task.
EXPECTED_EXIT = re.compile(r"#[^\"']*\(exit (\d+)\)[^\"']*$")


@dataclass(frozen=True)
class TryBlock:
    folder: Path
    index: int
    finished: bool
    commands: list[str]
    output: str | None

    @property
    def id(self) -> str:
        return f"{self.folder.name}-{self.index}"


def try_blocks() -> list[TryBlock]:
    blocks = []
    for folder in pairs_script.lesson_folders():
        text = (folder / "README.md").read_text(encoding="utf-8")
        for index, match in enumerate(FENCE.finditer(text), start=1):
            commands = [line for line in match.group(2).splitlines() if line.strip()]
            blocks.append(TryBlock(folder, index, bool(match.group(1)), commands, match.group(3)))
    return blocks


BLOCKS = try_blocks()


@pytest.mark.parametrize("folder", pairs_script.lesson_folders(), ids=lambda folder: folder.name)
def test_every_try_and_output_fence_is_read(folder: Path) -> None:
    """A misspelt fence (`bash try`, `sh try ` with a space, an output block standing alone) would be
    skipped in silence: each fence that looks like one must be one this test runs or compares."""
    text = (folder / "README.md").read_text(encoding="utf-8")
    read = {text.count("\n", 0, match.start()) for match in FENCE.finditer(text)}
    read |= {text.count("\n", 0, match.start(3)) - 1 for match in FENCE.finditer(text) if match.group(3) is not None}
    stray = [m.group(0) for m in FENCE_LIKE.finditer(text) if text.count("\n", 0, m.start()) not in read]
    assert not stray, f"lessons/{folder.name}/README.md: fences this test would skip: {stray}"


def test_every_lesson_readme_has_commands_to_try() -> None:
    without = {folder.name for folder in pairs_script.lesson_folders()} - {block.folder.name for block in BLOCKS}
    assert not without, f"READMEs with no ```sh try``` block: {sorted(without)}"


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WarmLibraries]:
    server = WarmLibraries(tmp_path_factory.mktemp("warm"))
    yield server
    server.close()


@pytest.mark.parametrize("block", BLOCKS, ids=[block.id for block in BLOCKS])
def test_a_try_it_block_runs_as_the_readme_says(block: TryBlock, tmp_path: Path, warm: WarmLibraries) -> None:
    project, home, bin_folder = tmp_path / "project", tmp_path / "home", tmp_path / "bin"
    for folder in (project, home, bin_folder):
        folder.mkdir()
    environment = {**os.environ, "HOME": str(home), "LESSON": str(block.folder), "NO_COLOR": "1"}
    if not block.finished:
        lesson_script.write_snapshot(int(block.folder.name[:2]), tmp_path / "snapshot")
        environment["PYTHONPATH"] = str(tmp_path / "snapshot")
    # `decode` is `python -P -m decode` of the package the PYTHONPATH above chooses, forked from a
    # process that imported its libraries already (warm_libraries.py).
    (bin_folder / "decode").write_text(f"#!/bin/sh\n{warm.command()}\n")
    (bin_folder / "decode").chmod(0o755)
    # Then the project's own programs (mcp-server-time, rg), as `uv run` and an installed decode have them.
    environment["PATH"] = os.pathsep.join([str(bin_folder), str(Path(sys.executable).parent), environment["PATH"]])
    stdout = ""
    for command in block.commands:
        done = subprocess.run(
            ["bash", "-o", "pipefail", "-c", command],  # a pipeline fails when any part of it does
            cwd=project,
            env=environment,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
            timeout=120,
        )
        expected = EXPECTED_EXIT.search(command)
        code = int(expected.group(1)) if expected else 0
        printed = done.stdout + done.stderr
        assert done.returncode == code, (
            f"{block.folder.name}/README.md: `{command}` exited {done.returncode}, not {code}:\n{printed}"
        )
        stdout = done.stdout
    if block.output is not None:
        assert stdout.replace(str(project), "<project>") == block.output, (
            f"{block.folder.name}/README.md: the recorded output of `{block.commands[-1]}` is out of date"
        )
