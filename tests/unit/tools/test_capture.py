"""OutputCapture: everything when it fits; head, tail and a file when it does not."""

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
