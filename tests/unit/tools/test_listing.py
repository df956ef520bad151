"""The bounded listing `@path` mentions use: the files `glob` would see, within a time and a count."""

from pathlib import Path

from decode.entities.executor import CommandExecutor
from decode.tools.listing import Listing, list_files

SEEN = {
    ".gitignore",
    "README.md",
    "keep.log",
    "src/top-only.txt",
    "src/main.py",
    "src/util.py",
    "src/.gitignore",
    "src/pkg/deep.py",
    ".github/ci.yml",
    "docs/win.txt",
    "docs/bom.txt",
    "data.bin",
}


async def test_ripgrep_and_the_python_walk_list_what_git_does_not_ignore(tree: Path, executor: CommandExecutor) -> None:
    for use_rg in (True, False):
        listing = await list_files(executor, tree, use_rg=use_rg)
        assert set(listing.paths) == SEEN, use_rg
        assert not listing.cut_short


async def test_a_listing_keeps_at_most_its_limit_and_says_so(tree: Path, executor: CommandExecutor) -> None:
    for use_rg in (True, False):
        listing = await list_files(executor, tree, limit=3, use_rg=use_rg)
        assert len(listing.paths) == 3
        assert set(listing.paths) <= SEEN
        assert listing.cut_short


async def test_a_listing_of_a_folder_is_relative_to_it(tree: Path, executor: CommandExecutor) -> None:
    listing = await list_files(executor, tree / "src")
    assert set(listing.paths) == {"top-only.txt", "main.py", "util.py", ".gitignore", "pkg/deep.py"}


async def test_a_listing_that_runs_out_of_time_says_it_was_cut_short(tree: Path, executor: CommandExecutor) -> None:
    listing = await list_files(executor, tree, use_rg=False, max_seconds=0)
    assert listing == Listing([], cut_short=True)
