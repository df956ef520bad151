"""Path rules compare resolved paths: `..`, symlinks and absolute spellings all land on one file."""

import os
from pathlib import Path

from decode.permissions.paths import absolute, compile_pattern, is_within, resolve


def test_every_spelling_of_a_file_resolves_to_the_same_path(tmp_path: Path) -> None:
    ws, home = str(tmp_path), str(tmp_path / "home")
    (tmp_path / "src").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / ".env")
    real = os.path.realpath(tmp_path / ".env")
    for spelling in (".env", "./.env", "src/../.env", f"{ws}/.env", f"{ws}//src/./../.env", "link"):
        assert resolve(spelling, ws, home) == real
    assert resolve("~/x", ws, home) == os.path.realpath(f"{home}/x")
    assert absolute("link", ws, home) == f"{ws}/link"


def test_within_means_the_folder_or_below() -> None:
    assert is_within("/a/b", "/a")
    assert is_within("/a", "/a")
    assert is_within("/a", "/")
    assert not is_within("/ab", "/a")


def test_patterns_are_relative_to_the_workspace_home_or_root(tmp_path: Path) -> None:
    home, ws = str(tmp_path / "home"), str(tmp_path / "ws")

    def matches(spec: str, path: str) -> bool:
        return compile_pattern(spec, ws, home).matches(os.path.realpath(path))

    assert matches("src/**", f"{ws}/src/a/b.py")
    assert not matches("src/**", f"{ws}/lib/src/b.py")
    assert matches(".env", f"{ws}/deep/.env")  # no slash: any depth, like gitignore
    assert not matches("/.env", f"{ws}/deep/.env")  # leading slash: the workspace root only
    assert matches("./.env", f"{ws}/.env")
    assert matches("~/.ssh/**", f"{home}/.ssh/id_rsa")
    assert matches("//etc/**", "/etc/passwd")
    assert matches("../shared/**", f"{tmp_path}/shared/x")
    assert not matches("src/**", f"{tmp_path}/src/x")  # outside the workspace
    assert compile_pattern(None, ws, home).matches("/anything")


def test_a_folder_alone_covers_everything_below_it(tmp_path: Path) -> None:
    """`Read(.)`, `Read(./)`, `Read(~/)`, `Read(//)`: the whole folder, not nothing (issue 25)."""
    home, ws = str(tmp_path / "home"), str(tmp_path / "ws")

    def matches(spec: str, path: str) -> bool:
        return compile_pattern(spec, ws, home).matches(path)

    assert matches(".", f"{ws}/src/a.py")
    assert matches("./", f"{ws}/a.py")
    assert matches("~/", f"{home}/.bashrc")
    assert matches("//", "/etc/passwd")
    assert not matches(".", f"{home}/a.py")
    assert matches("#notes", f"{ws}/#notes")  # a file whose name starts with `#`, not a comment
    assert matches("~/.ssh", f"{home}/.ssh/id_rsa")  # a folder covers what is in it
