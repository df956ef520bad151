"""A dynamic instruction: a function of the run context, which pydantic-ai calls before each request.

pydantic-ai wraps each one in a runner before every request, and the runner reads the function's
signature (`inspect.signature`, ~10 µs): 600 reads in a turn of 200 requests for decode's three
(issue 27, ADR-0108). `dynamic_instruction()` reads it once and gives it to the function as its
`__signature__`, which `inspect` returns as it is.
"""

import inspect
from collections.abc import Callable
from typing import Any


def dynamic_instruction[F: Callable[..., Any]](function: F) -> F:
    """`function`, its signature read once (see the module docstring)."""
    function.__signature__ = inspect.signature(function)  # ty: ignore[missing-attribute]
    return function
