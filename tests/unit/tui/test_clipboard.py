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
