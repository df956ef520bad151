"""LSP framing: `Content-Length` headers, bodies split across reads, and headers that are wrong."""

import asyncio
import json

import pytest

from decode.lsp.jsonrpc import FramingError, encode, read_message


def reader_of(*chunks: bytes, eof: bool = True) -> asyncio.StreamReader:
    reader = asyncio.StreamReader()
    for chunk in chunks:
        reader.feed_data(chunk)
    if eof:
        reader.feed_eof()
    return reader


def test_encode_counts_bytes_not_characters() -> None:
    framed = encode({"jsonrpc": "2.0", "method": "x", "params": {"text": "é𝔘"}})
    header, _, body = framed.partition(b"\r\n\r\n")
    assert header == b"Content-Length: %d" % len(body)
    assert len(body) > len(body.decode())  # é is 2 bytes, 𝔘 is 4: the header counts bytes
    assert json.loads(body)["params"]["text"] == "é𝔘"


async def test_messages_come_whole_whatever_the_reads() -> None:
    stream = encode({"id": 1, "result": "é" * 300}) + encode({"method": "n", "params": None})
    # One byte at a time: headers and bodies split anywhere.
    reader = reader_of(*(stream[i : i + 1] for i in range(len(stream))))
    first = await read_message(reader)
    second = await read_message(reader)
    assert first == {"id": 1, "result": "é" * 300}
    assert second == {"method": "n", "params": None}
    assert await read_message(reader) is None  # a clean end between messages


async def test_a_body_still_to_come_is_waited_for() -> None:
    framed = encode({"id": 7, "result": [1, 2, 3]})
    reader = reader_of(framed[:25], eof=False)
    pending = asyncio.ensure_future(read_message(reader))
    await asyncio.sleep(0)  # let it read what is there (not a race: the rest is fed below)
    assert not pending.done()
    reader.feed_data(framed[25:])
    assert await pending == {"id": 7, "result": [1, 2, 3]}


async def test_other_headers_and_bare_newlines_are_accepted() -> None:
    body = b'{"id":2,"result":null}'
    reader = reader_of(
        b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: %d\n\n" % len(body) + body
    )
    assert await read_message(reader) == {"id": 2, "result": None}


@pytest.mark.parametrize(
    ("stream", "why"),
    [
        (b"Content-Length: 5\r\n\r\n{}", "inside a message body"),
        (b"Content-Length: five\r\n\r\n{}", "not a number"),
        (b"Content-Type: x\r\n\r\n{}", "without a valid Content-Length"),
        (b"Content-Length: -3\r\n\r\n{}", "without a valid Content-Length"),
        (b"garbage without a colon\r\n\r\n", "without a colon"),
        (b"Content-Length: 3\r\n\r\n{x}", "not JSON"),
        (b"Content-Length: 2\r\n\r\n[]", "not a JSON object"),
        (b"Content-Length: 2\r\n", "inside a header"),
        (b"X: " + b"y" * 9000 + b"\r\n\r\n", "longer than 8 KB"),
    ],
)
async def test_a_broken_frame_is_a_framing_error(stream: bytes, why: str) -> None:
    with pytest.raises(FramingError, match=why):
        await read_message(reader_of(stream))
