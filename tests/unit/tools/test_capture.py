"""OutputCapture: everything when it fits; head, tail and a file when it does not."""

import stat
from pathlib import Path

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
