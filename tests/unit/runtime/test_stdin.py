"""What `decode run` takes from stdin: when it reads it, what it refuses, how it sends it."""

import contextlib
import io
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from decode.runtime.stdin import MAX_BYTES, StdinError, read_input, readable, with_input


@pytest.fixture
def pipe() -> Iterator[tuple[io.BufferedReader, int]]:
    """A real pipe: its read end as a stream, its write end as a descriptor (closed after)."""
    read_end, write_end = os.pipe()
    stream = os.fdopen(read_end, "rb")
    yield stream, write_end
    stream.close()
    with contextlib.suppress(OSError):
        os.close(write_end)


def test_a_pipe_and_a_file_are_read_a_terminal_and_a_closed_stdin_never(
    pipe: tuple[io.BufferedReader, int], tmp_path: Path
) -> None:
    stream, _ = pipe
    assert readable(stream)
    file = tmp_path / "in.txt"
    file.write_text("x")
    with file.open("rb") as opened:
        assert readable(opened)
    leader, follower = os.openpty()
    try:
        with os.fdopen(os.dup(follower), "rb") as terminal:
            assert not readable(terminal)  # a person at a keyboard: never waited on
    finally:
        os.close(leader)
        os.close(follower)
    assert not readable(None)  # `<&-`
    assert readable(io.BytesIO(b"in memory"))


def test_a_pipe_nobody_writes_to_is_not_waited_on_for_ever(pipe: tuple[io.BufferedReader, int]) -> None:
    stream, _ = pipe  # the write end stays open and silent, as a CI runner's stdin can
    assert read_input(stream, wait_s=0.05) is None


def test_a_pipe_that_ended_or_wrote_is_read_whole(pipe: tuple[io.BufferedReader, int]) -> None:
    stream, write_end = pipe
    os.write(write_end, b"diff --git a b\n")
    os.close(write_end)
    assert read_input(stream, wait_s=5) == b"diff --git a b\n"


def test_binary_and_oversize_input_are_refused_in_one_line() -> None:
    with pytest.raises(StdinError, match=r"^stdin is binary \(a NUL byte at offset 3\); decode takes text only$"):
        read_input(io.BytesIO(b"PNG\0\1\2"))
    with pytest.raises(StdinError, match=r"^stdin is over 1 MiB; give the model a file to read instead$"):
        read_input(io.BytesIO(b"a" * (MAX_BYTES + 1)))
    assert read_input(io.BytesIO(b"a" * MAX_BYTES)) == b"a" * MAX_BYTES


def test_the_input_follows_the_task_as_a_fenced_block_with_its_size() -> None:
    assert with_input("review this diff", "+added\n-removed\n") == (
        "review this diff\n\nstdin (16 bytes, 2 lines):\n```\n+added\n-removed\n```\n"
    )
    assert with_input("t", "no newline") == "t\n\nstdin (10 bytes, 1 line):\n```\nno newline\n```\n"


def test_backticks_in_the_input_cannot_close_its_fence() -> None:
    sent = with_input("t", "```\nnot the end\n````\n")
    assert sent.endswith("`````\n")
    assert "\n`````\n```\nnot the end\n````\n`````\n" in sent
