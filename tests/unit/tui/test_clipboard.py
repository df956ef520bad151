"""Ctrl+V's clipboard reader (`decode.tui.clipboard`): a real program on PATH stands for `xclip`."""

import os
import time
from pathlib import Path

import pytest

from decode.tui.clipboard import CLIPBOARD_LIMIT, ClipboardError, clipboard_png


def _reader(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: str) -> None:
    folder = tmp_path / "bin"
    folder.mkdir()
    (folder / "xclip").write_text(f"#!/bin/sh\n{script}\n")
    (folder / "xclip").chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}:{os.defpath}")


def test_a_clipboard_past_the_cap_is_one_line_not_all_of_it_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever the clipboard holds (an endless stream, a huge "image") is read up to a cap."""
    _reader(tmp_path, monkeypatch, r"printf '\211PNG\r\n\032\n'; exec cat /dev/zero")
    started = time.monotonic()
    with pytest.raises(ClipboardError, match=r"larger than"):
        clipboard_png()
    assert time.monotonic() - started < 10
    assert CLIPBOARD_LIMIT < 1 << 30


def test_a_png_under_the_cap_is_read_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _reader(tmp_path, monkeypatch, r"printf '\211PNG\r\n\032\nrest'")
    assert clipboard_png() == b"\x89PNG\r\n\x1a\nrest"


def test_a_reader_that_hangs_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("decode.tui.clipboard.TIMEOUT_S", 0.5)
    _reader(tmp_path, monkeypatch, r"printf '\211PNG'; exec sleep 30")
    with pytest.raises(ClipboardError, match=r"did not answer within"):
        clipboard_png()


def test_a_link_or_fifo_a_repository_planted_in_the_clipboard_folder_is_never_followed(tmp_path: Path) -> None:
    """`.decode/clipboard/` is in the repository: a link there (the folder, or the very name the
    image hashes to) or a FIFO is replaced or refused, never written through or waited on."""
    import hashlib

    from decode.tui.clipboard import FOLDER, keep

    image = b"\x89PNG\r\n\x1a\nimage"
    name = f"{hashlib.sha256(image).hexdigest()[:16]}.png"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / name).write_bytes(b"theirs")
    linked = tmp_path / "linked-folder"
    (linked / ".decode").mkdir(parents=True)
    (linked / FOLDER).symlink_to(outside)
    with pytest.raises(OSError, match="symbolic link, never followed"):
        keep(image, linked)
    planted = tmp_path / "planted-names"
    (planted / FOLDER).mkdir(parents=True)
    (planted / FOLDER / name).symlink_to(outside / name)
    assert keep(image, planted) == FOLDER / name
    fifo = tmp_path / "fifo-name" / FOLDER / name
    fifo.parent.mkdir(parents=True)
    os.mkfifo(fifo)
    assert keep(image, tmp_path / "fifo-name") == FOLDER / name

    assert (outside / name).read_bytes() == b"theirs"
    assert not (planted / FOLDER / name).is_symlink()
    assert (planted / FOLDER / name).read_bytes() == image
    assert fifo.read_bytes() == image
