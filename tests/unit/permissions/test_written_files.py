"""The files a command writes by naming them (`tee a`, `sed -i`, `cp`, `mv`, `rm`, sed's `w FILE`)."""

import pytest

from decode.permissions.written_files import written_files


@pytest.mark.parametrize(
    ("words", "written"),
    [
        (("tee", "-a", "src/a.py"), "src/a.py"),
        (("sed", "-i", "s/a/b/", "src/a.py"), "src/a.py"),
        (("sed", "-ni.bak", "p", "src/a.py"), "src/a.py"),
        (("sed", "w .git/config", "x"), ".git/config"),
        (("sed", "-e", "s/a/b/w out.txt", "x"), "out.txt"),
        (("cp", "/etc/hostname", "src/a.py"), "src/a.py"),
        (("cp", "x", "src/"), "src/x"),  # into the folder
        (("cp", "-t.git/hooks", "x"), ".git/hooks/x"),
        (("mv", "x", "src/a.py"), "src/a.py"),
        (("mv", "src/a.py", "/tmp/y"), "src/a.py"),  # a move removes its source
        (("rm", "-f", "--", "src/a.py"), "src/a.py"),
        (("/usr/bin/dd", "if=x", "of=src/a.py"), "src/a.py"),
    ],
)
def test_the_files_a_command_writes(words: tuple[str, ...], written: str) -> None:
    assert written in written_files(words)


@pytest.mark.parametrize(
    "words",
    [
        ("cat", "src/a.py"),
        ("sed", "s/a/b/", "src/a.py"),
        ("sed", "-e", "s/x/i/", "src/a.py"),
        ("cp", "src/a.py", "/tmp/y"),
    ],
)
def test_a_command_that_only_reads_a_file_writes_nothing_there(words: tuple[str, ...]) -> None:
    assert "src/a.py" not in written_files(words)
