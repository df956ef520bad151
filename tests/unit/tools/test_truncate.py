"""Output truncation: short text untouched; long text as head + note + tail, saved in full."""

from pathlib import Path

from decode.tools.truncate import OUTPUT_DIR, head_tail, shorten


def test_short_text_is_untouched(tmp_path: Path) -> None:
    assert shorten("hello", 100, harness_home=tmp_path, label="t") == "hello"
    assert not (tmp_path / ".decode").exists()


def test_long_text_keeps_head_and_tail_and_saves_the_whole(tmp_path: Path) -> None:
    text = "HEAD" + "x" * 10_000 + "TAIL"
    out = shorten(text, 1000, harness_home=tmp_path, label="grep")
    assert out.startswith("HEAD")
    assert out.endswith("TAIL")
    assert "9,008 of 10,008 characters not shown" in out
    saved = out.split("the full output is in ")[1].split(" ")[0]
    assert saved.startswith("harness:tool-output/")  # a path read and grep open on the harness side
    assert (tmp_path / OUTPUT_DIR / saved.removeprefix("harness:tool-output/")).read_text() == text
    assert "tool-output/" in (tmp_path / ".decode" / ".gitignore").read_text().splitlines()


def test_head_tail_splits_the_limit() -> None:
    head, tail = head_tail("abcdefghij", 5)
    assert (head, tail) == ("abc", "ij")
