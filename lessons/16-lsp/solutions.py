"""Reference solutions of lesson 16's exercises, and a plausible mistake for each that its check rejects."""

import json
from collections import Counter


def read_frames(buffer: bytes) -> tuple[list[dict], bytes]:
    """Header lines up to an empty one; then exactly Content-Length *bytes* of body."""
    messages = []
    while True:
        end = buffer.find(b"\r\n\r\n")
        if end == -1:
            return messages, buffer
        length = None
        for line in buffer[:end].split(b"\r\n"):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        if length is None:
            raise ValueError("a message without Content-Length")
        start = end + 4
        if len(buffer) < start + length:
            return messages, buffer
        messages.append(json.loads(buffer[start : start + length]))
        buffer = buffer[start + length :]


def wrong_read_frames(buffer: bytes) -> tuple[list[dict], bytes]:
    """Counts the body in characters: any é or emoji makes it read too far."""
    messages = []
    text = buffer.decode("utf-8", errors="replace")
    while "\r\n\r\n" in text:
        header, _, rest = text.partition("\r\n\r\n")
        length = int(header.lower().split("content-length:")[1].split()[0])
        if len(rest) < length:
            break
        messages.append(json.loads(rest[:length]))
        text = rest[length:]
    return messages, text.encode()


def to_utf16(line: str, column: int) -> int:
    """Every character before the column: one unit, two outside the Basic Multilingual Plane."""
    return sum(2 if ord(char) > 0xFFFF else 1 for char in line[: column - 1])


def wrong_to_utf16(line: str, column: int) -> int:
    """0-based, but in code points: right until a line holds an emoji."""
    return min(column - 1, len(line))


def new_errors(before: list[tuple[str, int, str]], after: list[tuple[str, int, str]]) -> list[tuple[str, int, str]]:
    """A multiset of (file, message): each old error cancels one equal error after the edit."""
    left = Counter((file, message) for file, _, message in before)
    fresh = []
    for file, line, message in after:
        if left[file, message] > 0:
            left[file, message] -= 1
        else:
            fresh.append((file, line, message))
    return fresh


def wrong_new_errors(
    before: list[tuple[str, int, str]], after: list[tuple[str, int, str]]
) -> list[tuple[str, int, str]]:
    """Compares whole errors, lines included: every error below an added line looks new."""
    return [error for error in after if error not in before]
