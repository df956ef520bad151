"""The pipes between decode and a warm command (decode/sandbox/warm_pipes.py), with real pipes."""

import asyncio
import os

import pytest

from decode.sandbox.warm_pipes import Pipes, drain, read, reading


def test_started_is_read_when_asked_and_kept() -> None:
    pipes = Pipes(with_stdin=False)
    _, started, *_ = pipes.theirs()
    assert not pipes.begun()  # nothing said yet: no wait
    os.write(started, b"R")
    assert pipes.begun()
    pipes.close_theirs()
    assert pipes.begun()  # read once, remembered
    pipes.close_started()
    pipes.close_ours()


def test_a_pid_1_gone_without_a_word_has_not_begun() -> None:
    pipes = Pipes(with_stdin=True)
    assert len(pipes.theirs()) == 5
    pipes.close_theirs()
    assert not pipes.begun()
    pipes.close_ours()


async def test_a_pipe_is_read_to_its_end_and_drained() -> None:
    ours, theirs = os.pipe()
    chunks: list[bytes] = []
    reading = asyncio.ensure_future(read(ours, chunks.append))
    os.write(theirs, b"hello")
    os.close(theirs)
    assert await drain(reading, 30)
    assert b"".join(chunks) == b"hello"


def test_once_closed_started_is_never_read_again() -> None:
    pipes = Pipes(with_stdin=False)
    _, started, *_ = pipes.theirs()
    os.write(started, b"R")
    pipes.close_started()  # what it said is kept; its number may now be another file's
    decoy_read, decoy_write = os.pipe()
    os.write(decoy_write, b"R")
    assert pipes.begun()
    assert os.read(decoy_read, 1) == b"R"  # nothing read from whatever took the number
    for fd in (decoy_read, decoy_write):
        os.close(fd)
    pipes.close_theirs()
    pipes.close_ours()


async def test_a_pipe_is_watched_before_the_event_loop_turns() -> None:
    ours, theirs = os.pipe()
    done = reading(ours, lambda _: None)
    assert asyncio.get_running_loop().remove_reader(ours)  # watched already: no task to start first
    done.cancel()
    await asyncio.sleep(0)
    os.close(theirs)


async def test_a_reading_cancelled_closes_its_pipe() -> None:
    ours, theirs = os.pipe()
    done = reading(ours, lambda _: None)
    done.cancel()
    await asyncio.sleep(0)
    with pytest.raises(OSError, match="Bad file descriptor"):
        os.fstat(ours)
    os.close(theirs)


async def test_a_sink_that_fails_ends_the_reading_with_its_error() -> None:
    ours, theirs = os.pipe()

    def sink(_: bytes) -> None:
        raise ValueError("no room")

    done = reading(ours, sink)
    os.write(theirs, b"x")
    with pytest.raises(ValueError, match="no room"):
        await asyncio.wait_for(done, 30)
    os.close(theirs)
