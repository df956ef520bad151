"""The programs of the read-only list: each reads its options by its own table."""

import pytest

from decode.permissions.readonly_options import ReadOnly
from decode.permissions.readonly_programs import read_options


@pytest.mark.parametrize(
    ("name", "args", "expected"),
    [
        ("git", ("status",), ReadOnly("git status", (), git=True)),
        ("git", ("push",), "git push: only status, diff, log and show are read-only"),
        (
            "git",
            ("-C", "x", "log"),
            "git -C: only --no-pager, -P and --no-optional-locks may come before the subcommand",
        ),
        ("rg", ("x", "src"), ReadOnly("rg", ("x", "src"), folders=False)),
        ("rg", ("x",), "rg with no file searches a whole folder"),
        ("find", (".", "-name", "*.py"), ReadOnly("find", (".",))),
        ("find", (".", "-delete"), "find -delete deletes files"),
        ("uniq", ("a", "b"), "uniq INPUT OUTPUT writes its second file"),
        ("sort", ("-o", "x"), "sort -o writes a file"),
    ],
)
def test_each_program_reads_its_own_options(name: str, args: tuple[str, ...], expected: object) -> None:
    assert read_options(name, args) == expected
