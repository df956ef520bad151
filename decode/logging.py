"""Logging for the whole package.

Library code never prints: it logs through `logging.getLogger(__name__)`, and every entrypoint
calls `init_logger()` once at module level so those lines go somewhere sensible (stderr, short).
stdout stays free for answers, which is what makes `decode run "…" > answer.txt` work.
"""

import logging
import sys

_HANDLER_NAME = "decode-stderr"


def init_logger(level: str | int = "WARNING") -> logging.Logger:
    """Send the `decode` logger's records to stderr at `level`; safe to call more than once."""
    logger = logging.getLogger("decode")
    logger.setLevel(level.upper() if isinstance(level, str) else level)
    if not any(handler.get_name() == _HANDLER_NAME for handler in logger.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.set_name(_HANDLER_NAME)
        handler.setFormatter(logging.Formatter("decode: %(levelname)s %(name)s: %(message)s"))
        logger.addHandler(handler)
    return logger
