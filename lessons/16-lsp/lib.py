def size(text: str) -> int:
    """How many characters `text` has."""
    return len(text)
