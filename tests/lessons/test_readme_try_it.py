"""Every "try it" command of a lesson README runs in that lesson's shell, and does what it says.

A README marks what a reader can paste as a fenced block whose info string is `sh try`:

    ```sh try
    decode --version
    DECODE_MAX_REQUESTS=0 decode run "hi"     # a one-line error (exit 2)
    ```

The README tells the reader to paste it into the lesson's shell (`make lesson-shell N=NN`, an empty
scratch git checkout where `decode` and `python` are the lesson's package and `$LESSON` its folder). The
test runs each block that way: once, through that shell's non-interactive form, `scripts/lesson
shell NN -c BLOCK` (`bash -o pipefail`, so a pipeline fails when any part of it does), its lines one
after the other in one shell, as pasted; with its own HOME, no key, no `DECODE_*` setting. Between
the lines it only notes each one's exit code and sends its stdout to a file of its own. A block
whose info string is `sh try finished` runs as the top README says instead: the venv's finished
`decode`. A command must exit 0, or the code its comment names as `(exit N)`. A ```` ```text output
```` block right after holds what the block's last command prints on stdout, with the scratch folder
written `<project>`, and must match it. `decode` is started from a warm process (ADR-0106):
`LESSON_PYTHON` names the interpreter the shell's `decode` runs, so the program is the same.
"""

import os
import re
import shlex
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.lessons.conftest import ROOT, pairs_script
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


@pytest.fixture(scope="module")
def snapshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the lesson shells write their snapshots: each lesson's once for the module (a stamp)."""
    return tmp_path_factory.mktemp("snapshots")


def script(block: TryBlock, notes: Path) -> str:
    """The block's lines as written, each followed by a note of its exit code, its stdout to a file."""
    lines = []
    for index, command in enumerate(block.commands):
        out, err = shlex.quote(str(notes / f"{index}.out")), shlex.quote(str(notes / f"{index}.err"))
        lines += [f"exec >{out} 2>{err}", command, f"echo $? >>{shlex.quote(str(notes / 'status'))}"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("block", BLOCKS, ids=[block.id for block in BLOCKS])
def test_a_try_it_block_runs_as_the_readme_says(
    block: TryBlock, tmp_path: Path, warm: WarmLibraries, snapshots: Path
) -> None:
    project, home, notes = tmp_path / "project", tmp_path / "home", tmp_path / "notes"
    for folder in (project, home, notes):
        folder.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)  # as the shell's scratch folder is
    # The interpreter the shell's `decode` runs: `python -P -m decode ARGS` forked from the warm process.
    python = tmp_path / "python"
    python.write_text(f'#!/bin/sh\n[ "$1 $2 $3" = "-P -m decode" ] || exit 99\nshift 3\n{warm.command()}\n')
    python.chmod(0o755)
    environment = {**os.environ, "HOME": str(home), "NO_COLOR": "1", "LESSON_PYTHON": str(python)}
    environment.pop("PYTHONPATH", None)
    if block.finished:  # the top README's way: the venv active, `decode` the finished package
        (tmp_path / "bin").mkdir()
        (tmp_path / "bin" / "decode").write_text(f'#!/bin/sh\nexec {python} -P -m decode "$@"\n')
        (tmp_path / "bin" / "decode").chmod(0o755)
        path = [str(tmp_path / "bin"), str(Path(sys.executable).parent), environment["PATH"]]
        environment |= {"LESSON": str(block.folder), "PATH": os.pathsep.join(path)}
        command = ["bash", "-o", "pipefail", "-c", script(block, notes)]
    else:
        shell = [sys.executable, str(ROOT / "scripts" / "lesson"), "shell", block.folder.name[:2]]
        command = [*shell, "--dir", str(project), "--snapshots", str(snapshots), "-c", script(block, notes)]
    done = subprocess.run(
        command, cwd=project, env=environment, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=600
    )
    codes = [int(line) for line in (notes / "status").read_text().split()] if (notes / "status").exists() else []
    assert len(codes) == len(block.commands), f"the shell stopped early (exit {done.returncode}):\n{done.stderr}"
    for index, (command, code) in enumerate(zip(block.commands, codes, strict=True)):
        expected = EXPECTED_EXIT.search(command)
        wanted = int(expected.group(1)) if expected else 0
        printed = (notes / f"{index}.out").read_text() + (notes / f"{index}.err").read_text()
        assert code == wanted, f"{block.folder.name}/README.md: `{command}` exited {code}, not {wanted}:\n{printed}"
    if block.output is not None:
        stdout = (notes / f"{len(block.commands) - 1}.out").read_text()
        assert stdout.replace(str(project), "<project>") == block.output, (
            f"{block.folder.name}/README.md: the recorded output of `{block.commands[-1]}` is out of date"
        )
