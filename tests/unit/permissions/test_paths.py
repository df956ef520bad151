"""Path rules compare resolved paths: `..`, symlinks and absolute spellings all land on one file."""

from pathlib import Path

from decode.permissions.paths import absolute, compile_pattern, is_within, resolve


def test_every_spelling_of_a_file_resolves_to_the_same_path(tmp_path: Path) -> None:
    home = tmp_path / "home"
    (tmp_path / "src").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / ".env")
    real = (tmp_path / ".env").resolve()
    for spelling in (".env", "./.env", "src/../.env", str(tmp_path / ".env"), "link"):
        assert resolve(spelling, tmp_path, home) == real
    assert resolve("~/x", tmp_path, home) == (home / "x").resolve()
    assert absolute("link", tmp_path, home) == tmp_path / "link"


def test_within_means_the_folder_or_below() -> None:
    assert is_within(Path("/a/b"), Path("/a"))
    assert is_within(Path("/a"), Path("/a"))
    assert not is_within(Path("/ab"), Path("/a"))


def test_patterns_are_relative_to_the_workspace_home_or_root(tmp_path: Path) -> None:
    home = tmp_path / "home"
    ws = tmp_path / "ws"

    def matches(spec: str, path: Path) -> bool:
        return compile_pattern(spec, ws, home).matches(path.resolve())

    assert matches("src/**", ws / "src" / "a" / "b.py")
    assert not matches("src/**", ws / "lib" / "src" / "b.py")
    assert matches(".env", ws / "deep" / ".env")  # no slash: any depth, like gitignore
    assert not matches("/.env", ws / "deep" / ".env")  # leading slash: the workspace root only
    assert matches("./.env", ws / ".env")
    assert matches("~/.ssh/**", home / ".ssh" / "id_rsa")
    assert matches("//etc/**", Path("/etc/passwd"))
    assert matches("../shared/**", tmp_path / "shared" / "x")
    assert not matches("src/**", tmp_path / "src" / "x")  # outside the workspace
    assert compile_pattern(None, ws, home).matches(Path("/anything"))
