"""The safe reader: what a repository can plant in place of a file is refused at once, in one line."""

import os
import socket
import threading
from pathlib import Path

import pytest

from decode.config.safe_read import (
    MAX_DEPTH,
    UnreadableFile,
    beyond_cap,
    open_regular,
    parse_json,
    read_bytes,
    read_json,
    read_text,
    too_deep,
)


def linked(tmp_path: Path, target: str | Path) -> Path:
    path = tmp_path / ".mcp.json"
    path.symlink_to(target)
    return path


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom", "/dev/null"])
def test_a_link_to_a_device_is_refused_without_reading_it(tmp_path: Path, device: str) -> None:
    path = linked(tmp_path, device)
    with pytest.raises(UnreadableFile) as raised:
        read_bytes(path)
    assert str(raised.value) == f"{path}: is not a regular file"


def test_a_link_to_stdin_is_refused_whatever_stdin_is(tmp_path: Path) -> None:
    path = linked(tmp_path, "/dev/stdin")
    reading, writing = os.pipe()  # a pipe nobody writes: reading it would wait for ever
    saved = os.dup(0)
    os.dup2(reading, 0)
    try:
        with pytest.raises(UnreadableFile, match="is not a regular file"):
            read_text(path)
    finally:
        os.dup2(saved, 0)
        for fd in (saved, reading, writing):
            os.close(fd)


def test_a_fifo_with_no_writer_is_refused_at_once(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)  # a blocking open would wait for a writer for ever
    outcome: list[BaseException] = []

    def attempt() -> None:
        try:
            read_bytes(linked(tmp_path, fifo))
        except BaseException as exc:
            outcome.append(exc)

    worker = threading.Thread(target=attempt, daemon=True)
    worker.start()
    worker.join(timeout=30)  # generous; done at once when opened non-blocking
    if worker.is_alive():
        with open(fifo, "wb"):  # let the blocked open go, so the thread ends
            pass
        pytest.fail("reading a FIFO waited for a writer")
    assert [type(exc) for exc in outcome] == [UnreadableFile]
    assert "is not a regular file" in str(outcome[0])


def test_a_socket_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        with pytest.raises(UnreadableFile, match=r"cannot be read|is not a regular file"):
            read_bytes(path)


def test_a_directory_is_named_as_what_was_expected(tmp_path: Path) -> None:
    (tmp_path / "agents.md").mkdir()
    with pytest.raises(UnreadableFile, match=r"agents\.md: is a directory, not an agent file$"):
        read_text(tmp_path / "agents.md", what="an agent file")


def test_a_missing_file_or_a_dangling_link_is_none(tmp_path: Path) -> None:
    assert read_text(tmp_path / "absent") is None
    assert read_bytes(linked(tmp_path, tmp_path / "nowhere")) is None
    with pytest.raises(FileNotFoundError):
        open_regular(tmp_path / "absent")


def test_a_link_to_a_regular_file_is_followed(tmp_path: Path) -> None:
    (tmp_path / "real.json").write_text('{"mcpServers": {}}')
    assert read_json(linked(tmp_path, tmp_path / "real.json")) == {"mcpServers": {}}


def test_a_huge_file_is_refused_having_read_one_byte_past_the_cap(tmp_path: Path) -> None:
    path = tmp_path / "big"
    path.write_bytes(b"x" * 101)
    assert read_bytes(path, limit=101) == b"x" * 101
    with pytest.raises(UnreadableFile, match=r"big: is larger than 100 bytes$"):
        read_bytes(path, limit=100)
    path.write_bytes(b" " * ((1 << 20) + 1))
    with pytest.raises(UnreadableFile, match="is larger than 1 MiB"):
        read_bytes(path)


def test_bytes_that_are_not_utf8_are_an_error_naming_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "SKILL.md"
    path.write_bytes(b"---\nname: caf\xe9\n---\n")
    with pytest.raises(UnreadableFile) as raised:
        read_text(path)
    assert str(raised.value).startswith(f"{path}:2: is not UTF-8 text (invalid continuation byte")
    assert raised.value.line == 2


def test_a_bom_is_not_part_of_the_text(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"\xef\xbb\xbf{}")
    assert read_text(tmp_path / "f") == "{}"
    (tmp_path / "g").write_bytes("{}".encode("utf-16"))
    assert read_json(tmp_path / "g") == {}


@pytest.mark.parametrize("text", ["[" * 100_000, '{"a": ' * 50_000, '{"s": "[[[["}' + "[" * 65])
def test_deep_nesting_is_refused_before_the_parser_recurses(tmp_path: Path, text: str) -> None:
    with pytest.raises(UnreadableFile) as raised:
        parse_json(text, tmp_path / ".mcp.json")
    assert str(raised.value).startswith(f"{tmp_path / '.mcp.json'}:1: nested more than {MAX_DEPTH} levels deep")


def test_nesting_inside_strings_does_not_count() -> None:
    text = '{"a": "' + "[" * 1000 + '\\"{{{"}'
    assert too_deep(text) is None
    assert parse_json(text, Path("x")) == {"a": "[" * 1000 + '"{{{'}


def test_bad_json_says_where(tmp_path: Path) -> None:
    with pytest.raises(UnreadableFile, match=r"x:2: not valid JSON \(Expecting value\)"):
        parse_json('{"a":\n}', Path("x"))
    with pytest.raises(UnreadableFile, match="not valid JSON"):
        parse_json("1" * 5000, Path("x"))  # more digits than Python converts


def test_beyond_cap_keeps_the_first_and_names_the_rest_in_one_short_line() -> None:
    kept, note = beyond_cap(list(range(30_000)), 100, Path(".mcp.json"), "servers")
    assert list(kept) == list(range(100))
    assert note == ".mcp.json: 29,900 more servers than the 100 read; they are left out"
    assert beyond_cap([1, 2], 2, Path("x"), "skills") == ([1, 2], None)
