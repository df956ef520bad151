"""Binary detection and the text style (BOM, line endings) that edits keep."""

from pathlib import Path

import pytest

from decode.tools.text import TextStyle, binary_kind, decode_text


def test_binary_kind() -> None:
    assert binary_kind(Path("a.txt"), b"hello\n") is None
    assert binary_kind(Path("a.dat"), b"\x00\x01") == "binary"
    assert binary_kind(Path("a.pdf"), b"%PDF\x00") == "binary, application/pdf"
    assert binary_kind(Path("photo.jpg"), b"") == "image/jpeg"


@pytest.mark.parametrize(
    "data",
    [b"a\nb\n", b"a\r\nb\r\n", b"\xef\xbb\xbfa\r\nb\r\n", b"\xef\xbb\xbfno newline", b""],
)
def test_decoding_and_encoding_round_trip(data: bytes) -> None:
    text, style = decode_text(data)
    assert style.encode(text) == data


def test_the_model_s_newlines_become_the_file_s() -> None:
    assert TextStyle(crlf=True).to_file_newlines("a\nb\r\nc") == "a\r\nb\r\nc"
    assert TextStyle().to_file_newlines("a\nb") == "a\nb"


def test_invalid_utf8_is_an_error_not_a_guess() -> None:
    with pytest.raises(UnicodeDecodeError):
        decode_text("café".encode("latin-1"))
