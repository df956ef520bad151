"""Output truncation: short text untouched; long text as head + note + tail, saved in full."""

import stat
from pathlib import Path

from decode.config.redaction import Redactor
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


def test_saved_output_is_the_users_alone(tmp_path: Path) -> None:
    shorten("x" * 5_000, 1000, harness_home=tmp_path, label="bash")
    [saved] = (tmp_path / OUTPUT_DIR).iterdir()
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / OUTPUT_DIR).stat().st_mode) == 0o700


def test_text_that_cannot_be_saved_keeps_head_and_tail_and_says_why(tmp_path: Path) -> None:
    (tmp_path / ".decode").write_text("a file where the Harness Home should be\n")
    shown = shorten("a" * 500 + "b" * 500, 100, harness_home=tmp_path, label="grep")
    assert shown.startswith("a" * 50)
    assert shown.endswith("b" * 50)
    assert "the full output could not be saved (" in shown


def test_a_shortened_output_saves_and_shows_no_key(tmp_path: Path) -> None:
    key = "AIzaSyD-truncate-key-0123456789abcdef"
    text = "".join(f"{n:05} {key}\n" for n in range(500))
    shown = shorten(text, 1000, harness_home=tmp_path, label="t", redactor=Redactor.of({"GEMINI_API_KEY": key}))
    assert not any(key[i : i + 8] in shown for i in range(len(key) - 7))
    (saved,) = (tmp_path / OUTPUT_DIR).iterdir()
    assert key not in saved.read_text()
    assert saved.read_text().count("[REDACTED:GEMINI_API_KEY]") == 500
