"""The pure-Python walk lists exactly the files ripgrep lists, through either executor."""

import subprocess
import sys
from pathlib import Path

from decode.entities.executor import CommandExecutor
from decode.tools.ripgrep import RULE_FLAGS
from decode.tools.walk import walk_files

RG = str(Path(sys.prefix) / "bin" / "rg")


def rg_files(directory: Path) -> set[str]:
    out = subprocess.run([RG, *RULE_FLAGS, "--files"], cwd=directory, capture_output=True, text=True, check=True)
    return set(out.stdout.split())


async def walked(executor: CommandExecutor, directory: Path) -> set[str]:
    return {path.relative_to(directory).as_posix() for path in await walk_files(executor, directory)}


async def test_the_walk_follows_gitignore_hidden_and_symlink_rules(tree: Path, executor: CommandExecutor) -> None:
    assert await walked(executor, tree) == {
        ".gitignore",
        ".github/ci.yml",
        "README.md",
        "keep.log",
        "data.bin",
        "docs/bom.txt",
        "docs/win.txt",
        "src/.gitignore",
        "src/main.py",
        "src/pkg/deep.py",
        "src/top-only.txt",
        "src/util.py",
    }


async def test_the_walk_matches_ripgrep_from_the_top_and_from_a_subdirectory(
    tree: Path, executor: CommandExecutor
) -> None:
    assert await walked(executor, tree) == rg_files(tree)
    assert await walked(executor, tree / "src") == rg_files(tree / "src")


async def test_outside_a_git_repository_gitignore_does_not_apply(workspace: Path, executor: CommandExecutor) -> None:
    (workspace / ".gitignore").write_text("*.log\n")
    (workspace / "a.log").write_text("x\n")
    assert await walked(executor, workspace) == {".gitignore", "a.log"} == rg_files(workspace)
