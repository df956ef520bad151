"""Semantic Versioning 2.0.0 precedence (see SPEC.md)."""


def compare(a: str, b: str) -> int:
    """Return -1, 0 or 1 as version a has lower, equal or higher precedence than version b.

    Raises ValueError when a or b is not a valid version.
    """
    raise NotImplementedError
