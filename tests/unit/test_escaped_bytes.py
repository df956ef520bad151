"""`escape_bytes` / `unescape_bytes`: names that are not UTF-8, spelled `\\xNN` and back."""

import json
import os

from decode.escaped_bytes import escape_bytes, unescape_bytes

NAME = os.fsdecode(b"caf\xe9.txt")  # as os.listdir hands it over: 'caf\udce9.txt'


def test_a_byte_that_is_not_utf8_is_spelled_as_python_and_bash_write_it() -> None:
    assert escape_bytes(NAME) == "caf\\xe9.txt"
    json.dumps(escape_bytes(NAME), ensure_ascii=False).encode("utf-8")  # UTF-8 can carry it now


def test_other_lone_surrogates_are_spelled_as_code_points() -> None:
    assert escape_bytes("a\ud800b") == "a\\ud800b"


def test_valid_text_is_left_alone() -> None:
    for text in ("plain.txt", "café.txt", "日本語 🙂", ""):
        assert escape_bytes(text) == text


def test_the_spelling_maps_back_to_the_name() -> None:
    assert unescape_bytes("caf\\xe9.txt") == NAME
    assert unescape_bytes("dir\\xff/x\\xfe.txt") == os.fsdecode(b"dir\xff/x\xfe.txt")
    assert unescape_bytes(escape_bytes(NAME)) == NAME


def test_a_spelling_escape_bytes_never_writes_is_not_mapped() -> None:
    assert unescape_bytes("plain.txt") is None
    assert unescape_bytes("caf\\xc3\\xa9.txt") is None  # valid UTF-8 (é): the literal text stands
    assert unescape_bytes("a\\x41.txt") is None  # ASCII is never escaped
