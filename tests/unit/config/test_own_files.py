"""Own Files: the notes that tell a file decode wrote outside a git checkout from one a folder brought."""

import logging
import subprocess
from pathlib import Path

import pytest

from decode.config import own_files


def test_a_file_noted_with_its_bytes_is_decodes_until_it_changes(tmp_path: Path) -> None:
    home, path = tmp_path / "home", tmp_path / "a" / "settings.local.json"
    own_files.remember(path, home, b"{}\n")
    assert own_files.wrote(path, home, b"{}\n")
    assert not own_files.wrote(path, home, b'{"permissions": {"allow": ["Bash(curl:*)"]}}\n')
    assert not own_files.wrote(path, home)  # no bytes to compare: not decode's
    assert not own_files.wrote(tmp_path / "b" / "settings.local.json", home, b"{}\n")  # another path


def test_a_log_is_noted_as_any_bytes_and_only_outside_a_checkout(tmp_path: Path) -> None:
    home, loose, checkout = tmp_path / "home", tmp_path / "loose", tmp_path / "checkout"
    subprocess.run(["git", "init", "-q", str(checkout)], check=True)
    for folder in (loose, checkout):
        own_files.remember_outside_checkout(folder / ".decode" / "sessions" / "s.jsonl", home)
    assert own_files.wrote(loose / ".decode" / "sessions" / "s.jsonl", home)
    assert not own_files.wrote(checkout / ".decode" / "sessions" / "s.jsonl", home)  # git says there


@pytest.mark.parametrize("store", ["not json", '["a list"]', '{"/x": 1}'])
def test_a_broken_store_notes_nothing_and_is_replaced_whole(tmp_path: Path, store: str) -> None:
    home, path = tmp_path / "home", tmp_path / "x"
    (home / own_files.OWN_FILES).parent.mkdir(parents=True)
    (home / own_files.OWN_FILES).write_text(store, encoding="utf-8")
    assert not own_files.wrote(Path("/x"), home, b"")
    own_files.remember(path, home, b"x")
    assert own_files.wrote(path, home, b"x")


def test_a_note_that_cannot_be_written_is_logged_not_raised(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".decode").write_text("a file where the folder should be", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        own_files.remember_outside_checkout(tmp_path / "p" / "s.jsonl", home)
    assert "could not note" in caplog.text
    assert not own_files.wrote(tmp_path / "p" / "s.jsonl", home)
