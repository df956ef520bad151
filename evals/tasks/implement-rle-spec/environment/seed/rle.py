"""RLE-H run-length encoding: see SPEC.md."""


def encode(text: str) -> str:
    """Return the RLE-H encoding of ``text``."""
    raise NotImplementedError


def decode(data: str) -> str:
    """Return the text that ``data`` (an RLE-H encoding) stands for; ValueError if invalid."""
    raise NotImplementedError
