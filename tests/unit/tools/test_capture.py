"""OutputCapture: everything when it fits; head, tail and a file when it does not."""

import stat
from pathlib import Path

from decode.config.redaction import Redactor
from decode.tools.capture import OutputCapture


def test_small_output_is_kept_whole(tmp_path: Path) -> None:
    capture = OutputCapture(1000, harness_home=tmp_path, label="t")
    for chunk in (b"hello ", b"world\n"):
        capture.feed(chunk)
    capture.close()
    assert capture.render() == "hello world\n"
    assert capture.path is None


def test_large_output_goes_to_a_file_with_head_and_tail_shown(tmp_path: Path) -> None:
    capture = OutputCapture(1000, harness_home=tmp_path, label="t")
    lines = [f"line {n}\n".encode() for n in range(10_000)]
    for line in lines:
        capture.feed(line)
    capture.close()
    shown = capture.render()
    assert shown.startswith("line 0\n")
    assert shown.endswith("line 9999\n")
    assert len(shown) < 1200
    assert capture.path is not None
    assert capture.path.read_bytes() == b"".join(lines)


def test_utf8_split_across_chunks_and_invalid_bytes(tmp_path: Path) -> None:
    capture = OutputCapture(1000, harness_home=tmp_path, label="t")
    data = "é✓".encode()
    for byte in data:
        capture.feed(bytes([byte]))
    capture.feed(b"\xff\n")
    capture.close()
    assert capture.render() == "é✓\ufffd\n"


def test_the_spilled_file_is_the_users_alone(tmp_path: Path) -> None:
    capture = OutputCapture(1000, harness_home=tmp_path, label="t")
    capture.feed(b"y" * 5_000)
    capture.close()
    assert capture.path is not None
    assert stat.S_IMODE(capture.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(capture.path.parent.stat().st_mode) == 0o700


def test_output_that_cannot_be_saved_still_shows_head_and_tail_and_says_why(tmp_path: Path) -> None:
    (tmp_path / ".decode").write_text("a file where the Harness Home should be\n")
    capture = OutputCapture(1000, harness_home=tmp_path, label="t")
    for n in range(10_000):
        capture.feed(f"line {n}\n".encode())
    capture.close()
    shown = capture.render()
    assert shown.startswith("line 0\n")
    assert shown.endswith("line 9999\n")
    assert "the full output could not be saved (" in shown
    assert capture.path is None


def test_a_saved_output_holds_no_key_and_head_and_tail_no_piece_of_one(tmp_path: Path) -> None:
    key = "AIzaSyD-capture-key-0123456789abcdef"
    redactor = Redactor.of({"GEMINI_API_KEY": key})
    data = "".join(f"{n:05} {key}\n" for n in range(2000)).encode()
    for size in (1, 7, 4096):
        capture = OutputCapture(1000, harness_home=tmp_path, label=f"k{size}", redactor=redactor)
        for start in range(0, len(data), size):
            capture.feed(data[start : start + size])
        capture.close()
        assert capture.path is not None
        saved = capture.path.read_text()
        assert key not in saved
        assert saved.count("[REDACTED:GEMINI_API_KEY]") == 2000
        shown = capture.render()
        assert not any(key[i : i + 8] in shown for i in range(len(key) - 7))  # not even a piece
        assert shown.endswith("01999 [REDACTED:GEMINI_API_KEY]\n")
